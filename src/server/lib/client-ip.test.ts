import { describe, expect, it } from 'vitest'
import { forwardedFor, networkOf } from './client-ip.ts'

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

describe('forwardedFor', () => {
  it('reads the entry the outermost trusted proxy added, never one the client wrote', () => {
    // The client wrote 6.6.6.6; the one proxy in front of the app appended who reached it.
    expect(forwardedFor('6.6.6.6, 203.0.113.7', 1)).toBe('203.0.113.7')
    expect(forwardedFor('203.0.113.7', 1)).toBe('203.0.113.7')
    // A CDN, then the proxy: the CDN's entry is the client's.
    expect(forwardedFor('6.6.6.6, 203.0.113.7, 198.51.100.1', 2)).toBe('203.0.113.7')
    // Fewer entries than proxies: the first is all there is.
    expect(forwardedFor('203.0.113.7', 2)).toBe('203.0.113.7')
  })

  it('believes nothing without a trusted proxy, or without a header', () => {
    expect(forwardedFor('6.6.6.6', 0)).toBeUndefined()
    expect(forwardedFor(undefined, 1)).toBeUndefined()
    expect(forwardedFor(' , ', 1)).toBeUndefined()
  })
})
