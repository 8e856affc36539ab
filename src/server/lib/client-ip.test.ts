import { describe, expect, it } from 'vitest'
import { networkOf } from './client-ip.ts'

describe('networkOf', () => {
  it('keeps an IPv4 address, also when IPv4-mapped', () => {
    expect(networkOf('203.0.113.66')).toBe('203.0.113.66')
    expect(networkOf('::ffff:203.0.113.66')).toBe('203.0.113.66')
  })

  it('groups IPv6 addresses by their /64, however they are written', () => {
    const a = networkOf('2001:db8:85a3:1::1')
    expect(a).toBe('2001:db8:85a3:1::/64')
    expect(networkOf('2001:0db8:85a3:0001:ffff:ffff:ffff:fffe')).toBe(a)
    expect(networkOf('2001:db8:85a3:2::1')).not.toBe(a)
    expect(networkOf('::1')).toBe('0:0:0:0::/64')
  })

  it('passes anything else through', () => {
    expect(networkOf('unknown')).toBe('unknown')
  })
})
