// A new thread's send asks the model while its statement runs (decision 027): over HTTP, on the
// database as the app uses it. A lock on the user's row holds the statement back, so what goes to
// the provider before the send is stored is seen, not timed. Also run on PostgreSQL:
// node scripts/test-pg.mjs <this file>.
import { and, eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { messages, rateLimits, users } from '#server/db/schema/index.ts'
import { setUpAiTestApp } from '../../../../tests/helpers/ai-test-app.ts'
import { messageRow, readEvents, replyText, waitFor } from '../../../../tests/helpers/chat.ts'
import type { RecordedRequest } from '../../../../tests/stand-ins/ai-providers.ts'
import { MAX_GENERATING_PER_USER, SENDS_PER_MINUTE } from './admission.ts'

const app = setUpAiTestApp()
const db = () => app.t.deps.database.db
const send = (cookie: string, json: unknown) =>
  app.t.request('/api/messages', { method: 'POST', cookie, json })
const SLOW = '[[scenario:slow]]'

/** The send's start statement as the statement log shows it (send-statement.ts). */
const isStart = (q: string) => /insert into messages \(user_id, thread_id, content/i.test(q)
/** Requests the provider got whose prompt holds `marker`. */
const asked = (marker: string) =>
  app.ai.requests.filter((r: RecordedRequest) => JSON.stringify(r.body).includes(marker))

/** A person whose session this node has read (as the chat page's first request does). */
async function person() {
  const { cookie, user } = await app.t.signUp()
  await app.t.request('/api/session', { cookie })
  return { cookie, userId: user.id as string }
}

/**
 * Runs `during` while these users' rows are locked: a send's statement waits (on the embedded
 * database every other statement does too), and whatever went to the provider meanwhile did so
 * before the send was stored.
 */
async function whileLocked(userIds: string[], during: () => Promise<void>) {
  await db().transaction(async (tx) => {
    for (const id of userIds)
      await tx.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update')
    await during()
  })
}

describe('a head start', () => {
  it("asks the model while a new thread's statement waits, and keeps every word", async () => {
    const { cookie, userId } = await person()
    let sent: Promise<Response> | undefined
    await whileLocked([userId], async () => {
      sent = send(cookie, { content: 'first words' })
      await waitFor(async () => asked('first words').length === 1)
    })
    const events = await readEvents(await (sent as Promise<Response>))
    expect(events.at(-1)).toMatchObject({ done: true, status: 'complete' })
    const row = await messageRow(db(), events[0]?.id as string)
    expect(row?.response).toBe(replyText(events))
    expect(row?.response.length).toBeGreaterThan(0)
    expect(asked('first words')).toHaveLength(1)
    expect(asked('first words')[0]?.abandoned).toBe(false)
  })

  it('is not taken by a follow-up, whose history the statement reads', async () => {
    const a = await person()
    const b = await person()
    const first = await readEvents(await send(b.cookie, { content: 'opening' }))
    const threadId = first[0]?.threadId as string
    let followUp: Promise<Response> | undefined
    await whileLocked([a.userId, b.userId], async () => {
      app.t.queries.length = 0
      followUp = send(b.cookie, { content: 'a follow-up', threadId })
      await waitFor(async () => app.t.queries.some(isStart))
      // Sent after the follow-up's statement was issued: its head start reaches the provider
      // first, so a head start of the follow-up would have too.
      const control = send(a.cookie, { content: 'control send' })
      await waitFor(async () => asked('control send').length === 1)
      expect(asked('a follow-up')).toEqual([])
      void control.then((r) => r.body?.cancel())
    })
    const events = await readEvents(await (followUp as Promise<Response>))
    expect(events.at(-1)).toMatchObject({ done: true, status: 'complete' })
    expect(asked('a follow-up')).toHaveLength(1)
  })

  it('is aborted when the send is refused, and a person refused gets none for a minute', async () => {
    const { cookie, userId } = await person()
    await db()
      .insert(rateLimits)
      .values({ key: `send:${userId}`, windowStart: new Date(), count: SENDS_PER_MINUTE })
    let refused: Promise<Response> | undefined
    await whileLocked([userId], async () => {
      refused = send(cookie, { content: `over budget ${SLOW}` })
      await waitFor(async () => asked('over budget').length === 1)
    })
    const res = await (refused as Promise<Response>)
    expect(res.status).toBe(429)
    expect(await res.json()).toMatchObject({ code: 'rate_limited:request' })
    await waitFor(async () => asked('over budget')[0]?.abandoned)
    expect(await db().select().from(messages).where(eq(messages.userId, userId))).toEqual([])

    expect((await send(cookie, { content: 'refused again' })).status).toBe(429)
    // Sent after that refusal was answered: a head start of it would have reached the provider first.
    const other = await person()
    await readEvents(await send(other.cookie, { content: 'someone else' }))
    expect(asked('someone else')).toHaveLength(1)
    expect(asked('refused again')).toEqual([])
  })

  it(`asks the provider for little more than the ${MAX_GENERATING_PER_USER} replies 20 parallel sends start`, async () => {
    const { cookie, userId } = await person()
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send(cookie, { content: `parallel ${i} ${SLOW}` })),
    )
    const accepted = responses.filter((r) => r.status === 200)
    expect(accepted).toHaveLength(MAX_GENERATING_PER_USER)
    const streaming = await db()
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.userId, userId), sql`${messages.status} = 'streaming'`))
    expect(streaming).toHaveLength(MAX_GENERATING_PER_USER)
    // At most one head start per reply the person may have at once can be thrown away.
    expect(asked('parallel').length).toBeLessThanOrEqual(2 * MAX_GENERATING_PER_USER)
    await waitFor(
      async () => asked('parallel').filter((r) => !r.abandoned).length === MAX_GENERATING_PER_USER,
    )
    for (const { id } of streaming)
      await app.t.request(`/api/messages/${id}/stop`, { method: 'POST', cookie })
    for (const r of accepted) await r.body?.cancel()
  })
})
