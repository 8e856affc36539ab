// The histories kept for early starts (decision 033): for their person only, for minutes, within
// a bound on what they hold, and forgotten when their person deletes.
import { afterEach, describe, expect, it } from 'vitest'
import type { HistoryExchange } from './history.ts'
import { HISTORY_ROWS } from './send-statement.ts'
import { KEPT_MS, MAX_KEPT_CHARS, ThreadHistories } from './thread-histories.ts'

const exchange = (content: string, response = 'ok'): HistoryExchange => ({
  content,
  response,
  status: 'complete',
  mediaType: null,
})

let kept: ThreadHistories | undefined
afterEach(() => {
  // Each test's sweep timer goes with it.
  for (const userId of ['ann', 'bob']) kept?.forgetUser(userId)
  kept?.sweep()
})

describe('ThreadHistories', () => {
  it("answers a thread's history to its person only", () => {
    kept = new ThreadHistories(() => 0)
    kept.set('t1', 'ann', [exchange('Hi')])
    expect(kept.get('t1', 'ann')).toEqual([exchange('Hi')])
    expect(kept.get('t1', 'bob')).toBeUndefined()
    expect(kept.get('t2', 'ann')).toBeUndefined()
  })

  it('keeps the exchanges a send reads, the newest last', () => {
    kept = new ThreadHistories(() => 0)
    const long = Array.from({ length: HISTORY_ROWS + 5 }, (_, i) => exchange(`m${i}`))
    kept.set('t1', 'ann', long)
    const got = kept.get('t1', 'ann') ?? []
    expect(got).toHaveLength(HISTORY_ROWS)
    expect(got[0]?.content).toBe('m5')
    expect(got.at(-1)?.content).toBe(`m${HISTORY_ROWS + 4}`)
  })

  it('forgets a history after KEPT_MS, at a lookup or a sweep', () => {
    let now = 0
    kept = new ThreadHistories(() => now)
    kept.set('t1', 'ann', [exchange('Hi')])
    kept.set('t2', 'ann', [exchange('Hello')])
    now = KEPT_MS
    expect(kept.get('t1', 'ann')).toBeDefined()
    now = KEPT_MS + 1
    expect(kept.get('t1', 'ann')).toBeUndefined()
    kept.sweep()
    expect(kept.size).toBe(0)
  })

  it('drops the oldest past MAX_KEPT_CHARS, and never keeps one history larger than that', () => {
    kept = new ThreadHistories(() => 0)
    const quarter = 'x'.repeat(MAX_KEPT_CHARS / 4)
    kept.set('t1', 'ann', [exchange(quarter)])
    kept.set('t2', 'ann', [exchange(quarter)])
    kept.set('t3', 'bob', [exchange(quarter)])
    expect(kept.size).toBe(3)
    // A set moves its thread to the newest: t1 is kept, t2 goes.
    kept.set('t1', 'ann', [exchange(quarter), exchange('more')])
    kept.set('t4', 'bob', [exchange(quarter)])
    expect(kept.get('t2', 'ann')).toBeUndefined()
    expect(kept.get('t1', 'ann')).toBeDefined()
    expect(kept.get('t4', 'bob')).toBeDefined()
    kept.set('t5', 'ann', [exchange('y'.repeat(MAX_KEPT_CHARS + 1))])
    expect(kept.get('t5', 'ann')).toBeUndefined()
  })

  it("forgets all of one person's threads at once", () => {
    kept = new ThreadHistories(() => 0)
    kept.set('t1', 'ann', [exchange('Hi')])
    kept.set('t2', 'ann', [exchange('Hello')])
    kept.set('t3', 'bob', [exchange('Hey')])
    kept.forgetUser('ann')
    expect(kept.get('t1', 'ann')).toBeUndefined()
    expect(kept.get('t2', 'ann')).toBeUndefined()
    expect(kept.get('t3', 'bob')).toBeDefined()
  })
})
