// Progress saves written in place (migration 0014): a save changes only a streaming
// reply's text and heartbeat, neither of them indexed, so PostgreSQL writes it as a HOT update
// (the new version beside the old on its page, no entry in any of the table's ten indexes). Counted
// with PostgreSQL's own per-transaction counters, on both databases.
import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { messages } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { saveBatch } from './progress-saver.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
}, 60_000)
afterAll(() => t.close())

type Counts = { updated: number; hot: number }

describe('progress saves', () => {
  it('are HOT updates: no index entry for any save of a streaming reply', async () => {
    const { db } = t.deps.database
    const { user } = await t.signUp()
    const rows = await db
      .insert(messages)
      .values(
        Array.from({ length: 2 }, (_, i) => ({
          userId: user.id as string,
          content: `question ${i}`,
          chatModel: 'gemini' as const,
          attemptId: randomUUID(),
        })),
      )
      .returning({ id: messages.id, attemptId: messages.attemptId })
    const ids = rows.map((r) => r.id)
    const counts = await db.transaction(async (tx) => {
      // PostgreSQL's counts of this transaction's updates to messages so far.
      const counted = async () =>
        (
          (await tx.execute(sql`
            select pg_stat_get_xact_tuples_updated('messages'::regclass)::int as updated,
              pg_stat_get_xact_tuples_hot_updated('messages'::regclass)::int as hot`)) as unknown as {
            rows: Counts[]
          }
        ).rows[0] as Counts
      const saves: Counts = { updated: 0, hot: 0 }
      let text = ''
      for (let save = 0; save < 5; save++) {
        // now() is one moment in a transaction: the heartbeat each save renews is set back first,
        // as the second between two saves would leave it.
        await tx.execute(
          sql`update messages set heartbeat_at = heartbeat_at - interval '1 second' where id in ${ids}`,
        )
        // Small: in one transaction no old version can be pruned, and all must fit on the page.
        text += ' word'.repeat(5)
        const before = await counted()
        // The last save only renews the lease (no new text).
        await saveBatch(
          tx,
          rows.map(({ id, attemptId }) => ({ id, attemptId: attemptId!, response: save < 4 ? text : null })),
        )
        const after = await counted()
        saves.updated += after.updated - before.updated
        saves.hot += after.hot - before.hot
      }
      return saves
    })
    // With heartbeat_at indexed (before migration 0014) every save wrote ten index entries: hot 0.
    expect(counts).toEqual({ updated: 10, hot: 10 })
  })

  it('find room on the page: the table keeps 30 percent of each page for them', async () => {
    const result = (await t.deps.database.db.execute(
      sql`select reloptions from pg_class where oid = 'messages'::regclass`,
    )) as unknown as { rows: { reloptions: string[] | null }[] }
    expect(result.rows[0]?.reloptions).toContain('fillfactor=70')
  })
})

describe('the sweep without the heartbeat index', () => {
  it('still finds lapsed replies by an index, however many are settled', async () => {
    const { db } = t.deps.database
    const { user } = await t.signUp()
    const settled = Array.from({ length: 3000 }, (_, i) => ({
      userId: user.id as string,
      content: `old ${i}`,
      chatModel: 'gemini' as const,
      status: 'complete' as const,
      completedAt: new Date(),
    }))
    await db.insert(messages).values(settled)
    await db.execute(sql`analyze messages`)
    // The sweep's own condition (lease.ts finishLapsed), which messages_unsettled_idx repeats.
    const plan = (await db.execute(sql`explain select id from messages
      where completed_at is null and (status = 'streaming' or reserved_chars > 0)
        and heartbeat_at < now() - make_interval(secs => 30)`)) as unknown as {
      rows: { 'QUERY PLAN': string }[]
    }
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('messages_unsettled_idx')
  })
})
