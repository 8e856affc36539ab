import { describe, expect, it } from 'vitest'
import { inputCharsOf, limitMessage, planOf, resetIsDue, secondsUntilReset, tierOf } from './usage.ts'

const now = new Date('2025-03-01T12:00:00Z')
const user = (over: Partial<Parameters<typeof tierOf>[0]> = {}) => ({
  isPremium: false,
  subscriptionEndDate: null,
  aiInputChars: 0,
  aiOutputChars: 0,
  lastAiUsageReset: new Date('2025-02-20T00:00:00Z'),
  ...over,
})

describe('tierOf', () => {
  it.each([
    [false, 0, 'pro', false],
    [false, 19_999, 'pro', false],
    [false, 20_000, 'flash-lite', false],
    [false, 99_999, 'flash-lite', false],
    [false, 100_000, 'flash-lite', true],
    [true, 499_999, 'pro', false],
    [true, 500_000, 'premium-fallback', false],
    [true, 999_999, 'premium-fallback', false],
    [true, 1_000_000, 'premium-fallback', true],
  ])('premium=%s usage=%i → %s, exceeded %s', (isPremium, used, gemini, exceeded) => {
    // Split between input and output: usage is their sum.
    const input = Math.floor(used / 3)
    const tier = tierOf(user({ isPremium, aiInputChars: input, aiOutputChars: used - input }), now)
    expect(tier).toMatchObject({ gemini, exceeded, used })
  })
})

describe('planOf', () => {
  it('treats premium with a past end date as free, with a future or no end date as premium', () => {
    expect(planOf({ isPremium: true, subscriptionEndDate: new Date('2025-02-01') }, now)).toBe('free')
    expect(planOf({ isPremium: true, subscriptionEndDate: new Date('2025-04-01') }, now)).toBe('premium')
    expect(planOf({ isPremium: true, subscriptionEndDate: null }, now)).toBe('premium')
    expect(planOf({ isPremium: false, subscriptionEndDate: null }, now)).toBe('free')
  })
})

describe('reset', () => {
  it('is due exactly 30 days after the last reset', () => {
    const last = new Date('2025-01-30T12:00:00Z')
    expect(resetIsDue(last, new Date('2025-03-01T11:59:59Z'))).toBe(false)
    expect(resetIsDue(last, new Date('2025-03-01T12:00:00Z'))).toBe(true)
  })

  it('names the reset day in the refusal', () => {
    const last = new Date('2025-02-20T08:00:00Z')
    expect(limitMessage('free', last)).toBe('Free usage limit exceeded; resets on 2025-03-22')
    expect(limitMessage('premium', last)).toBe('Premium usage limit exceeded; resets on 2025-03-22')
    expect(secondsUntilReset(last, new Date('2025-03-22T07:59:00Z'))).toBe(60)
  })
})

it('charges what the user wrote plus extracted attachment text', () => {
  expect(inputCharsOf({ content: 'hello' })).toBe(5)
  expect(inputCharsOf({ content: 'hi', extractedText: 'abc' })).toBe(5)
})
