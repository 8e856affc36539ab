import { describe, expect, it } from 'vitest'
import { checkLimits, draftOf } from './check-limits.ts'

const limits = {
  free: { charsPer30Days: 100_000, sendsPerMinute: 20, repliesAtOnce: 3 },
  premium: { charsPer30Days: 1_000_000, sendsPerMinute: 20, repliesAtOnce: 3 },
}

describe('checkLimits', () => {
  it('reads whole numbers, with or without thousands commas', () => {
    const draft = draftOf(limits)
    draft.free.charsPer30Days = ' 12,345 '
    expect(checkLimits(draft)).toEqual({
      limits: { ...limits, free: { ...limits.free, charsPer30Days: 12_345 } },
    })
  })

  it("names each wrong field with the contract's message", () => {
    const draft = draftOf(limits)
    draft.free.sendsPerMinute = '0'
    draft.premium.repliesAtOnce = '2.5'
    draft.premium.charsPer30Days = ''
    expect(checkLimits(draft)).toEqual({
      errors: {
        'free.sendsPerMinute': 'Sends per minute must be at least 1',
        'premium.repliesAtOnce': 'Replies at once must be a whole number',
        'premium.charsPer30Days': 'Characters per 30 days must be a whole number',
      },
    })
  })
})
