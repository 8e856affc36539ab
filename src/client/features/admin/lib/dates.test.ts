import { describe, expect, it } from 'vitest'
import { dateOnly, dateTime, utcDay } from './dates.ts'

describe('console dates', () => {
  it('counts days back in UTC', () => {
    const now = Date.parse('2026-03-01T00:30:00Z')
    expect(utcDay(0, now)).toBe('2026-03-01')
    expect(utcDay(1, now)).toBe('2026-02-28')
  })

  it('shows times in UTC whatever the browser zone', () => {
    expect(dateTime('2026-11-28T09:19:00Z')).toBe('28 Nov 2026, 09:19 UTC')
    expect(dateOnly('2026-11-28T23:59:00Z')).toBe('28 Nov 2026')
  })
})
