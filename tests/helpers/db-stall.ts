// How long the database kept others waiting while some work ran: a probe statement runs again
// and again beside the work, and the slowest one is the stall (counted in time held, never a speed
// goal). On the embedded database a transaction holds it for every other statement, so this is
// what another person's request waits for.
import { sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'

export async function worstDbStall<T>(
  db: Db,
  work: () => Promise<T>,
): Promise<{ value: T; stallMs: number }> {
  let done = false
  let worst = 0
  const probe = (async () => {
    while (!done) {
      const started = performance.now()
      await db.execute(sql`select 1`)
      worst = Math.max(worst, performance.now() - started)
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
  })()
  try {
    const value = await work()
    return { value, stallMs: worst }
  } finally {
    done = true
    await probe
  }
}
