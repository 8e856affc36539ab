// A reply's life beyond the happy path: retries, closed tabs, broken models, Stop, other nodes.
import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { messagePageSchema } from '#contract/messages.ts'
import { createApp } from '#server/app.ts'
import { messages, threads, users } from '#server/db/schema/index.ts'
import { setUpAiTestApp } from '../../../../tests/helpers/ai-test-app.ts'
import { eventReader, readEvents, replyText, settled, waitFor } from '../../../../tests/helpers/chat.ts'
import { TEST_ORIGIN } from '../../../../tests/helpers/test-app.ts'
import { finalizeReply } from './finalize.ts'
import { violates } from './send-statement.ts'

const app = setUpAiTestApp()
// A second app node on the same database: its own in-memory generation registry.
let nodeB: ReturnType<typeof createApp>
beforeAll(() => {
  nodeB = createApp(app.t.deps)
})

const db = () => app.t.deps.database.db
const SLOW = 'Tell me slowly [[scenario:slow]]'
const send = (cookie: string, json: Record<string, unknown>, init: RequestInit = {}) =>
  app.t.request('/api/messages', { method: 'POST', cookie, json, ...init })
const onNodeB = (path: string, cookie: string, json?: unknown) =>
  nodeB.request(`${TEST_ORIGIN}${path}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  })
const rowsWithKey = (userId: string, key: string) =>
  db()
    .select()
    .from(messages)
    .where(and(eq(messages.userId, userId), eq(messages.clientMessageId, key)))
const firstText = (e: { text?: string }) => Boolean(e.text)

async function signedIn() {
  const { cookie, user } = await app.t.signUp()
  return { cookie, userId: user.id as string }
}

describe('idempotent sends (clientMessageId)', () => {
  it('replays a finished reply instead of storing or generating a second one', async () => {
    const { cookie, userId } = await signedIn()
    const first = await readEvents(await send(cookie, { content: 'once', clientMessageId: 'k-1' }))
    const again = await readEvents(await send(cookie, { content: 'once', clientMessageId: 'k-1' }))
    expect(again.at(-1)).toEqual(first.at(-1))
    expect(replyText(again)).toBe(replyText(first))
    expect(await rowsWithKey(userId, 'k-1')).toHaveLength(1)
    expect(app.ai.requests).toHaveLength(1)
  })

  it('lets two simultaneous sends with one key share one message and one reply', async () => {
    const { cookie, userId } = await signedIn()
    const [a, b] = await Promise.all([
      send(cookie, { content: 'twice', clientMessageId: 'k-2' }).then(readEvents),
      send(cookie, { content: 'twice', clientMessageId: 'k-2' }).then(readEvents),
    ])
    // Each stream ends with the one reply, stored: the one that lost the insert follows it.
    const rows = await rowsWithKey(userId, 'k-2')
    expect(rows.map((r) => r.status)).toEqual(['complete'])
    const end = { id: rows[0]?.id, done: true, status: 'complete' }
    expect(a.at(-1)).toMatchObject(end)
    expect(b.at(-1)).toMatchObject(end)
    expect(replyText(a)).toBe(replyText(b))
    expect(replyText(a)).toBe(rows[0]?.response)
    expect(await db().select().from(threads).where(eq(threads.userId, userId))).toHaveLength(2)
    expect(app.ai.requests).toHaveLength(1)
  })

  // Only PostgreSQL runs two statements at once: the embedded database takes them in turn.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'stores a reply while a retry of its send is admitted, neither waiting for the other',
    async () => {
      const { userId } = await signedIn()
      const content = 'stored while retried'
      const attemptId = randomUUID()
      const reply = { chatModel: 'gemini', provider: 'google', modelId: 'gemini-test' } as const
      const [row] = await db()
        .insert(messages)
        .values({
          userId,
          clientMessageId: 'k-6',
          content,
          ...reply,
          reservedChars: content.length,
          attemptId,
        })
        .returning()
      await db()
        .update(users)
        .set({ aiReservedChars: content.length, aiGenerating: 1 })
        .where(eq(users.id, userId))
      const waitingOnLocks = async () => {
        const result = (await db().execute(sql`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'
        `)) as unknown as { rows: { n: number }[] }
        return result.rows[0]?.n ?? 0
      }
      let storing: Promise<unknown> | undefined
      // The retry's statement as it runs: the person's row updated by its admission, then its
      // insert of the same key, while the reply it names is being stored.
      const retry = db().transaction(async (tx) => {
        await tx
          .update(users)
          .set({ aiGenerating: sql`${users.aiGenerating} + 1` })
          .where(eq(users.id, userId))
        storing = finalizeReply(db(), {
          messageId: row!.id,
          attemptId,
          userId,
          threadId: null,
          ...reply,
          outcome: { status: 'complete', response: 'Stored.', errorMessage: null },
          inputTokens: 1,
          outputTokens: 1,
          latencyMs: 1,
          inputChars: content.length,
          impact: { zone: null, selfParamsB: null },
          now: new Date(),
        }).catch((err: unknown) => err)
        await waitFor(async () => (await waitingOnLocks()) > 0)
        await tx.insert(messages).values({ userId, clientMessageId: 'k-6', content, ...reply })
      })
      // The retry learns at once that the send was stored before (and answers as it), and the
      // reply is stored: no deadlock, which PostgreSQL ends by failing one of them.
      const refused = await retry.then(
        () => null,
        (err: unknown) => err,
      )
      expect(violates(refused, 'messages_client_id_idx')).toBe(true)
      expect(await storing).toMatchObject({ stored: true })
      const [stored] = await db().select().from(messages).where(eq(messages.id, row!.id))
      expect(stored).toMatchObject({ status: 'complete', response: 'Stored.', reservedChars: 0 })
      const [person] = await db().select().from(users).where(eq(users.id, userId))
      expect(person).toMatchObject({ aiReservedChars: 0, aiGenerating: 0 })
    },
  )

  it('generates again into the same row when the first attempt failed', async () => {
    const { cookie, userId } = await signedIn()
    app.ai.setScenario('upstream-error')
    const failed = await readEvents(await send(cookie, { content: 'retry me', clientMessageId: 'k-3' }))
    expect(failed.at(-1)?.status).toBe('failed')
    app.ai.setScenario('normal')
    const retried = await readEvents(await send(cookie, { content: 'retry me', clientMessageId: 'k-3' }))
    expect(retried.at(-1)).toMatchObject({ id: failed.at(-1)?.id, done: true, status: 'complete' })
    const rows = await rowsWithKey(userId, 'k-3')
    expect(rows.map((r) => [r.status, r.response, r.errorMessage])).toEqual([
      ['complete', replyText(retried), null],
    ])
  })

  it('replays an interrupted reply with its error rather than generating again', async () => {
    const { cookie } = await signedIn()
    const json = { content: 'break [[scenario:error-mid-stream]]', clientMessageId: 'k-4' }
    const first = await readEvents(await send(cookie, json))
    const again = await readEvents(await send(cookie, json))
    expect(again.at(-1)).toEqual(first.at(-1))
    expect(replyText(again)).toBe(replyText(first))
    expect(app.ai.requests).toHaveLength(1)
  })
})

describe('replies outlive their request', () => {
  it('completes and stores the reply after the browser goes away mid-stream', async () => {
    const { cookie } = await signedIn()
    app.ai.setChunkDelayMs(100)
    const browser = new AbortController()
    const events = eventReader(await send(cookie, { content: SLOW }, { signal: browser.signal }))
    const { id } = await events.until(firstText)
    browser.abort()
    const row = await settled(db(), id!)
    expect(row.status).toBe('complete')
    expect(row.response).toMatch(/^Echo: Tell me slowly/)
    expect(row.response).toMatch(/streams slowly on purpose/)
    expect(row.response.length).toBeGreaterThan(replyText(events.seen).length)
  })

  it('saves progress while streaming, so a reloaded page sees the reply grow', async () => {
    const { cookie } = await signedIn()
    app.ai.setChunkDelayMs(150)
    const events = eventReader(await send(cookie, { content: SLOW }))
    const { id } = await events.until(firstText)
    const midway = await waitFor(async () => {
      const list = messagePageSchema.parse(
        await (await app.t.request('/api/messages', { cookie })).json(),
      ).items
      // Not in Default: this send created its own thread, so look the message up by id.
      const threadId = (await db().select().from(messages).where(eq(messages.id, id!)))[0]?.threadId
      const inThread = messagePageSchema.parse(
        await (await app.t.request(`/api/messages?threadId=${threadId}`, { cookie })).json(),
      ).items
      const m = [...list, ...inThread].find((x) => x.id === id)
      return m && m.status === 'streaming' && m.response ? m : undefined
    })
    expect(midway.response).toMatch(/^Echo: /)
    const all = await events.rest()
    expect(all.at(-1)?.status).toBe('complete')
    expect(replyText(all).startsWith(midway.response)).toBe(true)
  })

  it('keeps what arrived when the model breaks mid-stream, marked interrupted, and says so', async () => {
    const { cookie, userId } = await signedIn()
    const events = await readEvents(await send(cookie, { content: 'go [[scenario:error-mid-stream]]' }))
    const last = events.at(-1)!
    expect(last).toMatchObject({ status: 'interrupted', code: 'bad_gateway:interrupted' })
    expect(last.error).toBe('Gemini stopped answering part-way; what arrived is kept. Please try again.')
    const partial = replyText(events)
    expect(partial).toMatch(/^Echo: go/)
    const row = await settled(db(), last.id!)
    expect(row).toMatchObject({ status: 'interrupted', response: partial, errorMessage: last.error })
    const [user] = await db().select().from(users).where(eq(users.id, userId))
    expect(user?.aiOutputChars).toBe(partial.length)
  })

  it('reports an empty reply as failed', async () => {
    const { cookie } = await signedIn()
    const events = await readEvents(await send(cookie, { content: 'nothing [[scenario:empty]]' }))
    expect(events.at(-1)).toMatchObject({
      status: 'failed',
      code: 'bad_gateway:empty_reply',
      error: 'Gemini sent an empty reply. Please try again.',
    })
    expect((await settled(db(), events.at(-1)!.id!)).status).toBe('failed')
  })
})

describe('POST /api/messages/:id/stop', () => {
  it('ends generation and keeps what arrived', async () => {
    const { cookie } = await signedIn()
    app.ai.setChunkDelayMs(150)
    const events = eventReader(await send(cookie, { content: SLOW }))
    const { id } = await events.until(firstText)
    const res = await app.t.request(`/api/messages/${id}/stop`, { method: 'POST', cookie })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ id, status: 'interrupted' })
    const all = await events.rest()
    expect(all.at(-1)).toMatchObject({ id, done: true, status: 'interrupted' })
    const row = await settled(db(), id!)
    expect(row).toMatchObject({ status: 'interrupted', errorMessage: null, response: replyText(all) })
    expect(row.response).toMatch(/^Echo: /)
    // A slow reply has at least 12 chunks; Stop cut it short.
    expect(all.filter((e) => e.text).length).toBeLessThan(12)
  })

  it('works when the request lands on another node (the database flag)', async () => {
    const { cookie } = await signedIn()
    app.ai.setChunkDelayMs(150)
    const events = eventReader(await send(cookie, { content: SLOW }))
    const { id } = await events.until(firstText)
    const res = await onNodeB(`/api/messages/${id}/stop`, cookie)
    expect(await res.json()).toEqual({ id, status: 'interrupted' })
    const all = await events.rest()
    expect(all.at(-1)).toMatchObject({ id, done: true, status: 'interrupted' })
    const row = await settled(db(), id!)
    expect(row.status).toBe('interrupted')
    expect(row.response).toBe(replyText(all))
  })

  it('leaves a finished reply as it is, and hides other users’ messages', async () => {
    const { cookie } = await signedIn()
    const events = await readEvents(await send(cookie, { content: 'quick' }))
    const id = events.at(-1)!.id!
    const res = await app.t.request(`/api/messages/${id}/stop`, { method: 'POST', cookie })
    expect(await res.json()).toEqual({ id, status: 'complete' })
    const stranger = await signedIn()
    const other = await app.t.request(`/api/messages/${id}/stop`, { method: 'POST', cookie: stranger.cookie })
    expect(other.status).toBe(404)
  })
})

it('a retried send on another node follows the reply being written on the first', async () => {
  const { cookie, userId } = await signedIn()
  app.ai.setChunkDelayMs(100)
  const json = { content: SLOW, clientMessageId: 'k-remote' }
  const onA = eventReader(await send(cookie, json))
  await onA.until(firstText)
  const onB = await readEvents(await onNodeB('/api/messages', cookie, json))
  const fromA = await onA.rest()
  expect(onB.at(-1)).toEqual(fromA.at(-1))
  expect(onB.at(-1)?.status).toBe('complete')
  expect(replyText(onB)).toBe(replyText(fromA))
  expect(await rowsWithKey(userId, 'k-remote')).toHaveLength(1)
  expect(app.ai.requests).toHaveLength(1)
})

describe('GET and DELETE /api/messages', () => {
  it('lists the Default thread oldest first, then clears all history keeping Default, emptied', async () => {
    const { cookie, userId } = await signedIn()
    const stranger = await signedIn()
    for (const content of ['one', 'two'])
      await readEvents(await send(cookie, { content, threadId: await defaultId(userId) }))
    await readEvents(await send(cookie, { content: 'own thread' }))
    await readEvents(await send(stranger.cookie, { content: 'not yours' }))
    const listed = messagePageSchema.parse(
      await (await app.t.request('/api/messages', { cookie })).json(),
    ).items
    expect(listed.map((m) => m.content)).toEqual(['one', 'two'])

    const res = await app.t.request('/api/messages', { method: 'DELETE', cookie })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ ok: true })
    expect(await (await app.t.request('/api/messages', { cookie })).json()).toEqual({
      items: [],
      nextCursor: null,
    })
    const left = await db().select().from(threads).where(eq(threads.userId, userId))
    expect(left.map((th) => th.title)).toEqual(['Default'])
    expect(await db().select().from(messages).where(eq(messages.userId, userId))).toEqual([])
    expect(await db().select().from(messages).where(eq(messages.userId, stranger.userId))).toHaveLength(1)
  })
})

async function defaultId(userId: string) {
  const [row] = await db()
    .select()
    .from(threads)
    .where(and(eq(threads.userId, userId), eq(threads.isDefault, true)))
  return row!.id
}
