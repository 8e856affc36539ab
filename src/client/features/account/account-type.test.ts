import { describe, expect, it } from 'vitest'
import { accountTypeLabel } from './account-type.ts'

const now = new Date('2026-06-01T12:00:00Z')

describe('accountTypeLabel', () => {
  it.each([
    [{ isPremium: false, subscription_end_date: '2027-01-01T00:00:00Z' }, 'Free'],
    [
      { isPremium: true, subscription_end_date: '2026-07-15T12:00:00Z' },
      'Premium (Active until July 15, 2026)',
    ],
    [{ isPremium: true, subscription_end_date: '2026-05-01T00:00:00Z' }, 'Free'],
    [{ isPremium: true, subscription_end_date: null }, 'Premium'],
  ])('%j -> %s', (user, label) => {
    expect(accountTypeLabel(user, now)).toBe(label)
  })
})
