import { and, eq, gte, isNotNull, ne, sql } from 'drizzle-orm'
import type { Co2HistoryDay } from '#contract/impact.ts'
import type { Db } from '#server/db/client.ts'
import { messages } from '#server/db/schema/index.ts'

const DAY_MS = 86_400_000

/** The first instant of the UTC day `days - 1` days before `now`'s: the window's start. */
export function historyStart(now: Date, days: number): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  return new Date(today - (days - 1) * DAY_MS)
}

/**
 * Per UTC day, the midpoints of the user's replies (messages.co2_impact, written by the impact
 * feature): `days` entries, oldest first, days without replies as zeros.
 */
export async function co2History(db: Db, userId: string, now: Date, days: number): Promise<Co2HistoryDay[]> {
  const from = historyStart(now, days)
  const day = sql<string>`to_char(${messages.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`
  const rows = await db
    .select({
      day,
      saved: sql<number>`coalesce(sum((${messages.co2Impact} -> 'saved' ->> 'mid')::float8), 0)`,
      actual: sql<number>`coalesce(sum((${messages.co2Impact} -> 'actual' ->> 'mid')::float8), 0)`,
      messages: sql<number>`count(*)::int`,
    })
    .from(messages)
    .where(
      and(
        eq(messages.userId, userId),
        isNotNull(messages.co2Impact),
        gte(messages.createdAt, from),
        // A copy made by '@' carries its source's impact; the CO2 was counted once, at the source.
        ne(messages.origin, 'copy'),
      ),
    )
    .groupBy(day)
  const byDay = new Map(rows.map((r) => [r.day, r]))
  return Array.from({ length: days }, (_, i) => {
    const date = new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10)
    const r = byDay.get(date)
    return {
      date,
      saved: Number(r?.saved ?? 0),
      actual: Number(r?.actual ?? 0),
      messages: Number(r?.messages ?? 0),
    }
  })
}
