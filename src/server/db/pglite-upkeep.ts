// What PostgreSQL's autovacuum does on a server, for the embedded database (decision 030). PGlite
// runs PostgreSQL as one backend with no autovacuum daemon: without this, its tables are never
// analysed nor vacuumed. The cost shows in the plans: a statement prepared while a table is small
// (pglite-statements.ts, decision 024) keeps its plan for the life of the process, so a
// follow-up's history would be read by a sequential scan of every message at each of its turns
// (1 ms for a send's start statement becomes 300 to 500 ms once messages hold 200,000 rows). An ANALYZE
// updates the statistics and invalidates the plans that depend on them; a VACUUM reclaims what
// progress saves leave behind (a dead row version a second per streaming reply) and freezes old
// rows before transaction ids could wrap around.
import { sql } from 'drizzle-orm'
import type { Logger } from 'pino'
import { type RepeatingJob, startRepeatingJob } from '#server/lib/repeating-job.ts'
import type { Db } from './client.ts'

/** PostgreSQL's own defaults (autovacuum_*): a table is due after this many changes plus a share. */
export const ANALYZE_BASE = 50
export const ANALYZE_SHARE = 0.1
export const VACUUM_BASE = 50
export const VACUUM_SHARE = 0.2
export const VACUUM_INSERT_BASE = 1000
export const VACUUM_INSERT_SHARE = 0.2
export const FREEZE_MAX_AGE = 200_000_000
/** How often the tables are looked at (autovacuum_naptime's default). */
export const UPKEEP_MS = 60_000

export interface TableUpkeep {
  table: string
  analyze: boolean
  vacuum: boolean
}

/** The app's tables due for an ANALYZE or a VACUUM, by PostgreSQL's autovacuum rules. */
export async function tablesDue(db: Db): Promise<TableUpkeep[]> {
  // reltuples is -1 for a table never analysed: counted as empty, as autovacuum counts it.
  const rows = sql`greatest(c.reltuples, 0)`
  const analyze = sql`s.n_mod_since_analyze > ${ANALYZE_BASE} + ${ANALYZE_SHARE}::float8 * ${rows}`
  const vacuum = sql`(s.n_dead_tup > ${VACUUM_BASE} + ${VACUUM_SHARE}::float8 * ${rows}
    or s.n_ins_since_vacuum > ${VACUUM_INSERT_BASE} + ${VACUUM_INSERT_SHARE}::float8 * ${rows}
    or age(c.relfrozenxid) > ${FREEZE_MAX_AGE})`
  const result = (await db.execute(sql`
    select s.relname as table, ${analyze} as analyze, ${vacuum} as vacuum
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.schemaname = 'public' and (${analyze} or ${vacuum})
    order by s.relname
  `)) as unknown as { rows: TableUpkeep[] }
  return result.rows
}

/**
 * After a bulk load (an import), on either database: each table analysed at once if the rows
 * added pass autovacuum's rule, so the plans made next see the table as it now is. Until the next
 * look (here, or a server's autovacuum) the statistics would still describe the table before the
 * load: a person scrolling through an import of many conversations would have had their pages
 * planned as if their thread held a handful of messages.
 */
export async function analyzeAfterLoad(
  db: Db,
  added: Record<string, number>,
  /**
   * A smaller sample than the server's (default_statistics_target, 100: 30,000 rows) for a table
   * analysed while others wait for the database (the embedded one, where a statement holds it):
   * 10 reads 3,000 rows, tens of milliseconds where the default held it over a second.
   */
  { statisticsTarget }: { statisticsTarget?: number } = {},
): Promise<string[]> {
  const names = Object.keys(added)
  if (names.length === 0) return []
  const sizes = (await db.execute(sql`
    select relname as table, greatest(reltuples, 0)::float8 as rows from pg_class
    where relnamespace = 'public'::regnamespace and relkind = 'r'
      and relname in (${sql.join(
        names.map((n) => sql`${n}`),
        sql`, `,
      )})
  `)) as unknown as { rows: { table: string; rows: number }[] }
  const due = sizes.rows
    .filter((t) => (added[t.table] ?? 0) > ANALYZE_BASE + ANALYZE_SHARE * Number(t.rows))
    .map((t) => t.table)
  for (const table of due) {
    if (statisticsTarget === undefined) await db.execute(sql`analyze ${sql.identifier(table)}`)
    else
      await db.transaction(async (tx) => {
        await tx.execute(
          sql`set local default_statistics_target = ${sql.raw(String(Math.trunc(statisticsTarget)))}`,
        )
        await tx.execute(sql`analyze ${sql.identifier(table)}`)
      })
  }
  return due
}

/**
 * Analyses and vacuums the tables due, one statement per table: the database thread runs one
 * statement at a time, so the app's own statements go between them. Returns what was done.
 */
export async function upkeepOnce(db: Db): Promise<TableUpkeep[]> {
  const due = await tablesDue(db)
  for (const t of due) {
    // A VACUUM that is due analyses in the same pass when that is due too.
    const command = t.vacuum ? (t.analyze ? 'vacuum (analyze)' : 'vacuum') : 'analyze'
    await db.execute(sql`${sql.raw(command)} ${sql.identifier(t.table)}`)
  }
  return due
}

/** Looks every `everyMs` (lib/repeating-job.ts: never two at once), logging what it did. */
export function startEmbeddedUpkeep(db: Db, log: Logger, everyMs = UPKEEP_MS): RepeatingJob {
  const look = async () => {
    const started = performance.now()
    const done = await upkeepOnce(db)
    if (done.length > 0)
      log.info(
        { tables: done, ms: Math.round(performance.now() - started) },
        'embedded database upkeep: tables analysed or vacuumed',
      )
  }
  return startRepeatingJob(look, everyMs, {
    onError: (err) => log.warn({ err }, 'embedded database upkeep failed'),
  })
}
