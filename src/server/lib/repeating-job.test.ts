import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startRepeatingJob } from './repeating-job.ts'

const HOUR = 3_600_000

describe('startRepeatingJob', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('runs at once with runNow, then every period', async () => {
    const run = vi.fn(async () => {})
    const job = startRepeatingJob(run, HOUR, { runNow: true, onError: () => {} })
    expect(run).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(HOUR)
    expect(run).toHaveBeenCalledTimes(2)
    await job.stop()
  })

  it('waits firstAfterMs for its first run, then keeps to the period from start', async () => {
    const run = vi.fn(async () => {})
    const job = startRepeatingJob(run, HOUR, { firstAfterMs: 300_000, onError: () => {} })
    expect(run).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(299_999)
    expect(run).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(run).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(HOUR - 300_000)
    expect(run).toHaveBeenCalledTimes(2)
    await job.stop()
  })

  it('stopped before its first run, never runs', async () => {
    const run = vi.fn(async () => {})
    const job = startRepeatingJob(run, HOUR, { firstAfterMs: 300_000, onError: () => {} })
    await job.stop()
    await vi.advanceTimersByTimeAsync(2 * HOUR)
    expect(run).not.toHaveBeenCalled()
  })

  it('skips a tick while a run is under way, and stop waits for that run', async () => {
    let finish = () => {}
    const run = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)))
    const job = startRepeatingJob(run, 1_000, { runNow: true, onError: () => {} })
    await vi.advanceTimersByTimeAsync(3_000)
    expect(run).toHaveBeenCalledTimes(1)
    let stopped = false
    const stopping = job.stop().then(() => {
      stopped = true
    })
    await vi.advanceTimersByTimeAsync(0)
    expect(stopped).toBe(false)
    finish()
    await stopping
    expect(stopped).toBe(true)
  })
})
