import { describe, expect, it } from 'vitest'
import { isProAt } from './user.ts'

describe('isProAt', () => {
  const now = new Date('2025-03-01T12:00:00Z')
  it('is Pro while premium has no end date or one still to come, on Dates and ISO strings alike', () => {
    expect(isProAt(true, null, now)).toBe(true)
    expect(isProAt(true, undefined, now)).toBe(true)
    expect(isProAt(true, new Date('2025-03-01T12:00:01Z'), now)).toBe(true)
    expect(isProAt(true, '2025-03-01T12:00:01.000Z', now)).toBe(true)
  })
  it('is free at and after the end date, and whenever not premium', () => {
    expect(isProAt(true, new Date('2025-03-01T12:00:00Z'), now)).toBe(false)
    expect(isProAt(true, '2025-02-01T00:00:00.000Z', now)).toBe(false)
    expect(isProAt(false, null, now)).toBe(false)
    expect(isProAt(false, '2026-01-01T00:00:00.000Z', now)).toBe(false)
  })
})
