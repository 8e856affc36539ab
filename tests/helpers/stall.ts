// The main thread's worst stall while some work runs: the guard around hostile inputs (counted
// in time the loop was held, never a speed goal). The sampler is a timer whose first tick only
// sets its clock, and a stall is recorded when a later tick comes late: so the timer ticks once
// before the work and once after it. Without both, work that held the loop from its start to its
// end (a regex over a whole message) read as no stall at all.
import { monitorEventLoopDelay } from 'node:perf_hooks'

export async function worstStall<T>(
  work: () => Promise<T>,
  resolutionMs = 10,
): Promise<{ value: T; stallMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: resolutionMs })
  const tick = () => new Promise((resolve) => setTimeout(resolve, resolutionMs * 2))
  delay.enable()
  try {
    await tick()
    const value = await work()
    await tick()
    return { value, stallMs: delay.max / 1e6 }
  } finally {
    delay.disable()
  }
}
