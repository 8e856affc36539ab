import { describe, expect, it } from 'vitest'
import { limitsChange } from './limits-change.ts'

const plan = { charsPer30Days: 50_000, sendsPerMinute: 10, repliesAtOnce: 2 }

describe('limitsChange', () => {
  it('names each limit that moved, plan by plan', () => {
    const detail = {
      before: { free: plan, premium: plan },
      after: { free: { ...plan, charsPer30Days: 12_345 }, premium: { ...plan, repliesAtOnce: 4 } },
    }
    expect(limitsChange(detail)).toEqual([
      'Free: characters per 30 days 50,000 → 12,345',
      'Premium: replies at once 2 → 4',
    ])
  })

  it('is null for any other detail', () => {
    expect(limitsChange({ note: 'x' })).toBeNull()
  })
})
