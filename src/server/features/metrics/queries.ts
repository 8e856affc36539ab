import { and, eq, gte, isNotNull, ne, sql } from 'drizzle-orm'
import type { Co2HistoryDay, Co2HistoryResponse } from '#contract/impact.ts'
import type { Db } from '#server/db/client.ts'
import { messages } from '#server/db/schema/index.ts'

const DAY_MS = 86_400_000

/** The first instant of the UTC day `days - 1` days before `now`'s: the window's start. */
export function historyStart(now: Date, days: number): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  return new Date(today - (days - 1) * DAY_MS)
}

// The sum of one number of messages.co2_impact over the group; 0 for none, and rows stored
// before energy and water were counted (no such key) add nothing. Only a JSON number is cast: a
// row holding anything else there (an old import took co2Impact unchecked) adds nothing too,
// where casting it failed the whole history with a 500, every time.
const total = (key: 'saved' | 'actual' | 'energyWh' | 'waterL', bound: 'min' | 'mid' | 'max') => {
  const value = sql`${messages.co2Impact} -> ${sql.raw(`'${key}'`)} -> ${sql.raw(`'${bound}'`)}`
  return sql<number>`coalesce(sum(case when jsonb_typeof(${value}) = 'number' then (${value})::float8 end), 0)`
}

/**
 * Per UTC day, the midpoints of the user's replies (messages.co2_impact, written by the impact
 * feature): `days` entries, oldest first, days without replies as zeros; and the window's totals
 * with their bounds.
 */
export async function co2History(
  db: Db,
  userId: string,
  now: Date,
  days: number,
): Promise<Co2HistoryResponse> {
  const from = historyStart(now, days)
  const day = sql<string>`to_char(${messages.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`
  const rows = await db
    .select({
      day,
      saved: total('saved', 'mid'),
      actual: total('actual', 'mid'),
      energyWh: total('energyWh', 'mid'),
      waterL: total('waterL', 'mid'),
      actualMin: total('actual', 'min'),
      actualMax: total('actual', 'max'),
      energyWhMin: total('energyWh', 'min'),
      energyWhMax: total('energyWh', 'max'),
      waterLMin: total('waterL', 'min'),
      waterLMax: total('waterL', 'max'),
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
  const list: Co2HistoryDay[] = Array.from({ length: days }, (_, i) => {
    const date = new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10)
    const r = byDay.get(date)
    return {
      date,
      saved: Number(r?.saved ?? 0),
      actual: Number(r?.actual ?? 0),
      energyWh: Number(r?.energyWh ?? 0),
      waterL: Number(r?.waterL ?? 0),
      messages: Number(r?.messages ?? 0),
    }
  })
  const sum = (pick: (r: (typeof rows)[number]) => number) => rows.reduce((t, r) => t + Number(pick(r)), 0)
  return {
    days: list,
    totals: {
      actual: { min: sum((r) => r.actualMin), mid: sum((r) => r.actual), max: sum((r) => r.actualMax) },
      energyWh: {
        min: sum((r) => r.energyWhMin),
        mid: sum((r) => r.energyWh),
        max: sum((r) => r.energyWhMax),
      },
      waterL: { min: sum((r) => r.waterLMin), mid: sum((r) => r.waterL), max: sum((r) => r.waterLMax) },
    },
  }
}
