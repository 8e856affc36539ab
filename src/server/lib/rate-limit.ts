import { type SQL, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { AppError } from './app-error.ts'

/**
 * The statement that counts one more use of a key in its fixed window, answering `count` and
 * `retry_after` (seconds until the window ends). `row` selects the key, now() and 1: a statement
 * may select it from a step of its own, so that nothing is counted when that step gives no row.
 */
export function countUse(row: SQL, windowSeconds: number): SQL {
  const window = sql`make_interval(secs => ${windowSeconds})`
  const expired = sql`rate_limits.window_start < now() - ${window}`
  return sql`insert into rate_limits (key, window_start, count) ${row}
    on conflict (key) do update set
      count = case when ${expired} then 1 else rate_limits.count + 1 end,
      window_start = case when ${expired} then now() else rate_limits.window_start end
    returning count, ceil(extract(epoch from (window_start + ${window} - now())))::int as retry_after`
}

/**
 * Counts one more use of `key` in its fixed window, kept in the database so every app node shares
 * it: the count so far, and when the window ends.
 */
export async function countInWindow(db: Db, key: string, windowSeconds: number) {
  const result = (await db.execute(countUse(sql`values (${key}, now(), 1)`, windowSeconds))) as unknown as {
    rows: { count: number; retry_after: number }[]
  }
  const row = result.rows[0]
  return { count: Number(row?.count ?? 0), retryAfter: Math.max(1, Number(row?.retry_after ?? 1)) }
}

/** A fixed-window limit on `key`: 429 with Retry-After once the key is over it. */
export async function enforceRateLimit(
  db: Db,
  key: string,
  opts: {
    limit: number
    windowSeconds: number
    /** What the person reads; a function gets the seconds to wait. */
    message?: string | ((retryAfterSeconds: number) => string)
  },
): Promise<void> {
  const { count, retryAfter } = await countInWindow(db, key, opts.windowSeconds)
  if (count > opts.limit) {
    const message =
      typeof opts.message === 'function'
        ? opts.message(retryAfter)
        : (opts.message ?? `Too many attempts. Try again in ${retryAfter} seconds.`)
    throw new AppError('rate_limited:request', message, {
      headers: { 'Retry-After': String(retryAfter) },
    })
  }
}

export async function pruneRateLimits(db: Db): Promise<void> {
  await db.execute(sql`delete from rate_limits where window_start < now() - interval '1 day'`)
}

/**
 * Gives back one attempt counted by enforceRateLimit: sign-in counts every try up front (so
 * parallel guesses cannot overtake the check) and refunds the ones that turned out right, so
 * only failures spend the budget.
 */
export async function refundRateLimit(db: Db, key: string): Promise<void> {
  await db.execute(sql`update rate_limits set count = greatest(count - 1, 0) where key = ${key}`)
}
