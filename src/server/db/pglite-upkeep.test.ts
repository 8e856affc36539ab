// The embedded database's autovacuum (decision 030), counted in rows read, not time.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { rateLimits, threads } from '#server/db/schema/index.ts'
import { createLogger } from '#server/lib/logger.ts'
import { setUpAiTestApp } from '../../../tests/helpers/ai-test-app.ts'
import { readEvents, settled } from '../../../tests/helpers/chat.ts'
import { type Db, openDatabase } from './client.ts'
import { startEmbeddedUpkeep, tablesDue, upkeepOnce } from './pglite-upkeep.ts'

/**
 * Statistics are flushed at most once a second as the backend goes idle; this flushes them at
 * the next idle moment (after this statement), so what follows reads them up to date.
 */
const flushStats = (db: Db) => db.execute(sql`select pg_stat_force_next_flush()`)

/** What pg_stat_user_tables says of one table. */
async function tableStats(db: Db, table: string) {
  await flushStats(db)
  const result =
    (await db.execute(sql`select seq_tup_read::int, n_dead_tup::int, analyze_count::int, vacuum_count::int
    from pg_stat_user_tables where relname = ${table}`)) as unknown as {
      rows: {
        seq_tup_read: number
        n_dead_tup: number
        analyze_count: number
        vacuum_count: number
      }[]
    }
  return result.rows[0]!
}

/** 50 changes and a tenth of the rows make an ANALYZE due; 50 dead rows and a fifth, a VACUUM. */
async function thresholdsHold(db: Db) {
  await flushStats(db)
  await upkeepOnce(db)
  await flushStats(db)
  expect(await tablesDue(db)).toEqual([])
  const before = await tableStats(db, 'rate_limits')

  // 50 changes plus a tenth of the rows: an ANALYZE.
  const keys = Array.from({ length: 60 }, (_, i) => ({
    key: `upkeep:${i}`,
    windowStart: new Date(),
    count: 1,
  }))
  await db.insert(rateLimits).values(keys)
  await flushStats(db)
  expect(await tablesDue(db)).toContainEqual({ table: 'rate_limits', analyze: true, vacuum: false })
  await upkeepOnce(db)
  let after = await tableStats(db, 'rate_limits')
  expect(after.analyze_count).toBe(before.analyze_count + 1)
  expect(after.vacuum_count).toBe(before.vacuum_count)
  expect(await tablesDue(db)).toEqual([])

  // 50 dead rows plus a fifth of the rows: a VACUUM, which leaves none.
  for (let i = 0; i < 2; i++)
    await db.execute(sql`update rate_limits set count = count + 1 where key like 'upkeep:%'`)
  await flushStats(db)
  expect(await tablesDue(db)).toContainEqual({ table: 'rate_limits', analyze: true, vacuum: true })
  await upkeepOnce(db)
  after = await tableStats(db, 'rate_limits')
  expect(after.vacuum_count).toBe(before.vacuum_count + 1)
  expect(after.n_dead_tup).toBe(0)
  expect(await tablesDue(db)).toEqual([])
}

// A PostgreSQL server analyses and vacuums by its own daemon; this is the embedded database's.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('embedded database upkeep', () => {
  const app = setUpAiTestApp()

  it('keeps a follow-up from reading every message once the history has grown', async () => {
    const { t } = app
    const db = t.deps.database.db
    const { cookie } = await t.signUp()
    let threadId: string | undefined
    const send = async () => {
      const res = await t.request('/api/messages', {
        method: 'POST',
        cookie,
        json: { content: 'Tell me about moths', ...(threadId ? { threadId } : {}) },
      })
      const events = await readEvents(res)
      threadId ??= events.find((e) => e.threadId)?.threadId
      await settled(db, events.find((e) => e.id)!.id!)
    }
    // A new thread and seven follow-ups (a history of seven turns). The embedded database runs a
    // prepared statement on a generic plan made at its first run (decision 024): made here while
    // the tables are small.
    for (let i = 0; i < 8; i++) await send()
    // Someone else's long history.
    const other = await t.signUp()
    const otherId = other.user.id as string
    const [otherThread] = await db.insert(threads).values({ userId: otherId, title: 'Long' }).returning()
    await db.execute(sql`insert into messages (user_id, thread_id, content, response, chat_model, depth, status)
      select ${otherId}::uuid, ${otherThread!.id}::uuid, 'q', 'a', 'gemini', g, 'complete'
      from generate_series(1, 20000) g`)

    const seqReadBy = async (run: () => Promise<void>) => {
      const before = (await tableStats(db, 'messages')).seq_tup_read
      await run()
      return (await tableStats(db, 'messages')).seq_tup_read - before
    }
    // Without upkeep the kept plan scans the table at every turn of the history (the fault this
    // fixes; should PostgreSQL stop keeping such plans, this test no longer tests anything).
    expect(await seqReadBy(send)).toBeGreaterThan(20_000 * 5)

    await flushStats(db)
    const done = await upkeepOnce(db)
    expect(done).toContainEqual({ table: 'messages', analyze: true, vacuum: true })
    // The statistics changed, so the plan is made again: by index.
    expect(await seqReadBy(send)).toBe(0)
    expect(await tablesDue(db)).toEqual([])
  }, 60_000)

  it("analyses and vacuums a table by autovacuum's thresholds, and only then", async () => {
    await thresholdsHold(app.t.deps.database.db)
  })

  it('does the same through the database thread, on a data directory (as shipped)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'loris-upkeep-'))
    const database = await openDatabase({ dataDir: dir })
    try {
      await thresholdsHold(database.db)
    } finally {
      await database.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})

describe('the upkeep timer', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('looks on its timer, never twice at once, and stops after the look under way', async () => {
    vi.useFakeTimers()
    let finish: (rows: unknown) => void = () => {}
    const execute = vi.fn(() => new Promise((resolve) => (finish = resolve)))
    const db = { execute } as unknown as Db
    const upkeep = startEmbeddedUpkeep(db, createLogger({ level: 'silent' }), 1000)
    expect(execute).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(3500)
    // The first look is still waiting on the database: no second one.
    expect(execute).toHaveBeenCalledTimes(1)
    finish({ rows: [] })
    await vi.advanceTimersByTimeAsync(1000)
    expect(execute).toHaveBeenCalledTimes(2)
    let stopped = false
    const stopping = upkeep.stop().then(() => {
      stopped = true
    })
    await vi.advanceTimersByTimeAsync(0)
    expect(stopped).toBe(false)
    finish({ rows: [] })
    await stopping
    await vi.advanceTimersByTimeAsync(5000)
    expect(execute).toHaveBeenCalledTimes(2)
  })
})
