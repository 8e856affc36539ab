// The person's sent-message count (a tree on every second message, the upgrade prompt) is kept on
// their row by the database (migration 0015): a reply's end reads it instead of counting their
// whole history. It must match a count of the messages after anything that adds,
// settles or removes them, and a reply's end must read as much with a long history as a short one.
import { and, count, eq, inArray, ne, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { messages, PERSON_SENT_ORIGINS, threads, users } from '#server/db/schema/index.ts'
import { setUpAiTestApp } from '../../../../tests/helpers/ai-test-app.ts'
import { readEvents } from '../../../../tests/helpers/chat.ts'
import { ownerWithDefault } from '../../../../tests/helpers/thread-kit.ts'

const app = setUpAiTestApp()
const db = () => app.t.deps.database.db

const signedIn = () => ownerWithDefault(app.t)

const kept = async (userId: string) =>
  (await db().select({ n: users.sentMessages }).from(users).where(eq(users.id, userId)))[0]!.n

const counted = async (userId: string) => {
  const [row] = await db()
    .select({ n: count() })
    .from(messages)
    .where(
      and(
        eq(messages.userId, userId),
        ne(messages.status, 'failed'),
        inArray(messages.origin, [...PERSON_SENT_ORIGINS]),
      ),
    )
  return row!.n
}

type Origin = (typeof messages.$inferInsert)['origin']
type Status = (typeof messages.$inferInsert)['status']

function rows(userId: string, threadId: string, spec: [Origin, Status, number][]) {
  return spec.flatMap(([origin, status, n]) =>
    Array.from({ length: n }, () => ({
      userId,
      threadId,
      content: `${origin} ${status}`,
      chatModel: 'gemini' as const,
      origin,
      status,
    })),
  )
}

describe("the person's sent count", () => {
  it('follows messages added, settled, retried and removed, whatever the path', async () => {
    const { userId, defaultId } = await signedIn()
    expect(PERSON_SENT_ORIGINS).toEqual(['sent', 'edit'])
    await db()
      .insert(messages)
      .values(
        rows(userId, defaultId, [
          ['sent', 'complete', 3],
          ['edit', 'complete', 1],
          ['regenerate', 'complete', 2],
          ['copy', 'complete', 1],
          ['sent', 'failed', 2],
          ['sent', 'streaming', 1],
        ]),
      )
    expect(await kept(userId)).toBe(5)
    expect(await kept(userId)).toBe(await counted(userId))

    // A failed send retried counts again; a reply that fails stops counting; a progress save
    // (response only) changes nothing.
    const [failed] = await db()
      .select()
      .from(messages)
      .where(and(eq(messages.userId, userId), eq(messages.status, 'failed')))
    await db().update(messages).set({ status: 'streaming' }).where(eq(messages.id, failed!.id))
    expect(await kept(userId)).toBe(6)
    await db()
      .update(messages)
      .set({ status: 'failed' })
      .where(and(eq(messages.userId, userId), eq(messages.origin, 'edit')))
    await db()
      .update(messages)
      .set({ response: 'more text' })
      .where(and(eq(messages.userId, userId), eq(messages.status, 'streaming')))
    expect(await kept(userId)).toBe(5)
    await db().update(messages).set({ status: 'complete' }).where(eq(messages.status, 'streaming'))
    expect(await kept(userId)).toBe(5)
    expect(await kept(userId)).toBe(await counted(userId))

    // A thread deleted takes its messages with it (one statement, many rows).
    const [other] = await db().insert(threads).values({ userId, title: 'Other' }).returning()
    await db()
      .insert(messages)
      .values(
        rows(userId, other!.id, [
          ['sent', 'complete', 4],
          ['regenerate', 'complete', 2],
        ]),
      )
    expect(await kept(userId)).toBe(9)
    await db().delete(threads).where(eq(threads.id, other!.id))
    expect(await kept(userId)).toBe(5)
    await db().delete(messages).where(eq(messages.userId, userId))
    expect(await kept(userId)).toBe(0)
    expect(await counted(userId)).toBe(0)
  })

  it('is what the end of a real send reports', async () => {
    const { cookie, userId, defaultId } = await signedIn()
    for (const content of ['one', 'two', 'three']) {
      const events = await readEvents(
        await app.t.request('/api/messages', {
          method: 'POST',
          cookie,
          json: { content, threadId: defaultId, isEcoMode: false, useOpenAI: false },
        }),
      )
      expect(events.at(-1)).toMatchObject({ done: true, userMessageCount: await counted(userId) })
    }
    expect(await kept(userId)).toBe(3)
  })

  // Counting work, not time: the rows PostgreSQL's statistics say were read from messages.
  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    "reads as many messages at a reply's end with 2,000 sent before as with 10",
    async () => {
      const messagesRead = async () => {
        await db().execute(sql`select pg_stat_force_next_flush()`)
        const { rows } = (await db().execute(sql`
          select (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::text as n
          from pg_stat_user_tables where relname = 'messages'`)) as unknown as { rows: { n: string }[] }
        return Number(rows[0]!.n)
      }
      const readBySend = async (history: number) => {
        const { cookie, userId, defaultId } = await signedIn()
        // The history in another thread: the send's own thread (its context) stays short.
        const [old] = await db().insert(threads).values({ userId, title: 'Old' }).returning()
        await db()
          .insert(messages)
          .values(rows(userId, old!.id, [['sent', 'complete', history]]))
        const before = await messagesRead()
        const events = await readEvents(
          await app.t.request('/api/messages', {
            method: 'POST',
            cookie,
            json: { content: 'hello', threadId: defaultId, isEcoMode: false, useOpenAI: false },
          }),
        )
        expect(events.at(-1)).toMatchObject({ done: true, userMessageCount: history + 1 })
        return (await messagesRead()) - before
      }
      const short = await readBySend(10)
      const long = await readBySend(2000)
      expect(long - short).toBeLessThan(50)
    },
  )
})
