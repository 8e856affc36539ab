// The main thread's worst stall while some work runs: the guard around hostile inputs (counted
// in time the loop was held, never a speed goal). The sampler is a timer whose first tick only
// sets its clock, and a stall is recorded when a later tick comes late: so the timer ticks once
// before the work and once after it. Without both, work that held the loop from its start to its
// end (a regex over a whole message) read as no stall at all.
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { type SQL, sql } from 'drizzle-orm'

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

/**
 * The worst stalls of the main thread and of the database while `work` runs. The database's is
 * the longest a trivial statement waited, asked again and again on its own connection while the
 * work runs: on embedded PGlite (one connection, transactions exclusive) it is the longest any
 * statement or transaction of the work held the database from everyone else; on PostgreSQL it is
 * the wait for a pooled connection and a turn on the server.
 */
export async function worstStalls<T>(
  db: { execute: (query: SQL) => Promise<unknown> },
  work: () => Promise<T>,
): Promise<{ value: T; stallMs: number; dbStallMs: number }> {
  let done = false
  let dbStallMs = 0
  const probe = (async () => {
    while (!done) {
      const started = performance.now()
      await db.execute(sql`select 1`)
      dbStallMs = Math.max(dbStallMs, performance.now() - started)
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  })()
  try {
    const { value, stallMs } = await worstStall(work)
    return { value, stallMs, dbStallMs }
  } finally {
    done = true
    await probe
  }
}
