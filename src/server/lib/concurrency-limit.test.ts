import { describe, expect, it } from 'vitest'
import { AppError } from './app-error.ts'
import { ConcurrencyLimit } from './concurrency-limit.ts'

describe('ConcurrencyLimit', () => {
  it('runs at most `max` at once, queues `maxQueue`, refuses the next', async () => {
    const limit = new ConcurrencyLimit(2, 1, () => new AppError('service_unavailable:media_busy', 'busy'))
    let peak = 0
    const releases: Array<() => void> = []
    const task = () =>
      limit.run(async () => {
        peak = Math.max(peak, limit.active)
        await new Promise<void>((resolve) => releases.push(resolve))
        return 'done'
      })
    const first = [task(), task(), task()]
    await expect(task()).rejects.toMatchObject({ code: 'service_unavailable:media_busy', status: 503 })
    // Two run, the third waits for a slot.
    await expect.poll(() => releases.length).toBe(2)
    releases.shift()?.()
    await expect.poll(() => releases.length).toBe(2)
    for (const release of releases.splice(0)) release()
    expect(await Promise.all(first)).toEqual(['done', 'done', 'done'])
    expect(peak).toBe(2)
    expect(limit.active).toBe(0)
  })
})
