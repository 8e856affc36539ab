// A send on a session this node has read before: whatever changed behind the node (a sign-out,
// an expiry, a deleted account, a new plan) is answered on the session and the user's row as they
// are now. Also run on PostgreSQL: node scripts/test-pg.mjs <this file>.
import { and, eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { messages, rateLimits, sessions, users } from '#server/db/schema/index.ts'
import { setUpAiTestApp } from '../../../../tests/helpers/ai-test-app.ts'
import { messageRow, readEvents, usageOf } from '../../../../tests/helpers/chat.ts'
import { MAX_GENERATING_PER_USER } from './admission.ts'

const app = setUpAiTestApp()
const db = () => app.t.deps.database.db
const send = (cookie: string, json: unknown) =>
  app.t.request('/api/messages', { method: 'POST', cookie, json })
const SLOW = 'Tell me slowly [[scenario:slow]]'

/** The lookup every signed-in request makes (session.ts), as the statement log shows it. */
const isLookup = (q: string) => /from "sessions" inner join "users"/i.test(q)

/** A person whose session this node has read (as the chat page's first request does). */
async function readBefore() {
  const { cookie, user } = await app.t.signUp()
  const res = await app.t.request('/api/session', { cookie })
  expect(await res.json()).toMatchObject({ user: { id: user.id } })
  return { cookie, userId: user.id as string }
}

/** Everything a send can write for this user: none of it may change when the send is refused. */
async function writtenFor(userId: string) {
  const user = await usageOf(db(), userId)
  const stored = await db().select({ id: messages.id }).from(messages).where(eq(messages.userId, userId))
  const [budget] = await db()
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(eq(rateLimits.key, `send:${userId}`))
  return { user, messages: stored.length, budget: budget?.count ?? 0 }
}

async function expectSignedOut(res: Response) {
  expect(res.status).toBe(401)
  expect(await res.json()).toMatchObject({
    code: 'unauthorized:session',
    message: 'Please sign in to continue',
  })
}

describe('a send on a session read before', () => {
  it('reads the session once, before anything else', async () => {
    const { cookie } = await readBefore()
    app.t.queries.length = 0
    const events = await readEvents(await send(cookie, { content: 'hello' }))
    expect(events.at(-1)).toMatchObject({ done: true, status: 'complete' })
    expect(app.t.queries.filter(isLookup)).toHaveLength(1)
    expect(isLookup(app.t.queries[0] ?? '')).toBe(true)
  })

  it('answers 401 and writes nothing once the session was ended on another node', async () => {
    const { cookie, userId } = await readBefore()
    const before = await writtenFor(userId)
    // Another node's sign-out: the row goes, this node's memory of it stays.
    await db().delete(sessions).where(eq(sessions.userId, userId))
    app.t.queries.length = 0
    await expectSignedOut(await send(cookie, { content: 'after sign-out' }))
    expect(app.t.queries.filter(isLookup)).toHaveLength(1)
    expect(await writtenFor(userId)).toEqual(before)
  })

  it('answers 401 and writes nothing once the session has expired', async () => {
    const { cookie, userId } = await readBefore()
    const before = await writtenFor(userId)
    await db()
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(sessions.userId, userId))
    await expectSignedOut(await send(cookie, { content: 'after expiry' }))
    expect(await writtenFor(userId)).toEqual(before)
  })

  it('answers 401 and writes nothing once a password reset elsewhere ended the session', async () => {
    const { cookie, userId } = await readBefore()
    const before = await writtenFor(userId)
    // The reset raised the epoch; the session's row is still there (decision 041).
    await db()
      .update(users)
      .set({ sessionEpoch: sql`${users.sessionEpoch} + 1` })
      .where(eq(users.id, userId))
    await expectSignedOut(await send(cookie, { content: 'after the reset' }))
    expect(await writtenFor(userId)).toEqual(before)
  })

  it('answers 401 once the account was deleted', async () => {
    const { cookie, userId } = await readBefore()
    await db().delete(users).where(eq(users.id, userId))
    await expectSignedOut(await send(cookie, { content: 'after deletion' }))
    expect(await writtenFor(userId)).toMatchObject({ user: null, messages: 0, budget: 0 })
  })

  it('answers 401, not the body error, for a bad body on an ended session', async () => {
    const { cookie, userId } = await readBefore()
    await db().delete(sessions).where(eq(sessions.userId, userId))
    await expectSignedOut(await send(cookie, { content: 42 }))
    await expectSignedOut(await send(cookie, { content: '   ' }))
    // With the session alive the same bodies hear what is wrong with them.
    const alive = await readBefore()
    expect((await send(alive.cookie, { content: 42 })).status).toBe(400)
    expect((await send(alive.cookie, { content: '   ' })).status).toBe(400)
  })

  it('reads the session before a form, which may carry a file stored as it is read', async () => {
    const { cookie, userId } = await readBefore()
    const form = () => {
      const body = new FormData()
      body.set('content', 'from a form')
      return body
    }
    app.t.queries.length = 0
    const events = await readEvents(
      await app.t.request('/api/messages', { method: 'POST', cookie, body: form() }),
    )
    expect(events.at(-1)).toMatchObject({ done: true, status: 'complete' })
    expect(app.t.queries.filter(isLookup)).toHaveLength(1)
    // Once the session has ended, the form is refused before its body is read: nothing stored.
    await db().delete(sessions).where(eq(sessions.userId, userId))
    const before = await writtenFor(userId)
    await expectSignedOut(await app.t.request('/api/messages', { method: 'POST', cookie, body: form() }))
    expect(await writtenFor(userId)).toEqual(before)
  })

  it('uses the model of the usage as it is now, not as this node last saw it', async () => {
    const { cookie, userId } = await readBefore()
    // Free with 0 used was Gemini's pro model; 20,000 used (written elsewhere) is flash-lite.
    await db().update(users).set({ aiInputChars: 20_000 }).where(eq(users.id, userId))
    const events = await readEvents(await send(cookie, { content: 'which model?' }))
    expect(events.at(-1)).toMatchObject({ done: true, status: 'complete' })
    expect(app.ai.requests.map((r) => r.model)).toEqual(['gemini-2.5-flash-lite'])
    expect((await messageRow(db(), events[0]!.id!))?.modelId).toBe('gemini-2.5-flash-lite')
    expect((await writtenFor(userId)).messages).toBe(1)
  })

  it('admits a send on a plan bought on another node', async () => {
    const { cookie, userId } = await readBefore()
    // Over the free limit, well under the premium one: refused by the old row, admitted by the new.
    await db().update(users).set({ isPremium: true, aiInputChars: 150_000 }).where(eq(users.id, userId))
    const events = await readEvents(await send(cookie, { content: 'premium now' }))
    expect(events.at(-1)).toMatchObject({ done: true, status: 'complete' })
    expect(app.ai.requests.map((r) => r.model)).toEqual(['gemini-2.5-pro'])
  })

  it.each([
    ['a plan that ended', { isPremium: false }],
    ['usage that reached the limit', { aiInputChars: 1_000_000 }],
  ])('refuses with the usage 429 after %s on another node, storing nothing', async (_, change) => {
    const { cookie, userId } = await readBefore()
    // Premium with 600,000 used: the fallback model, well under the premium limit.
    await db().update(users).set({ isPremium: true, aiInputChars: 600_000 }).where(eq(users.id, userId))
    await app.t.request('/api/session', { cookie })
    const before = await writtenFor(userId)
    await db().update(users).set(change).where(eq(users.id, userId))
    const res = await send(cookie, { content: 'over the limit now' })
    expect(res.status).toBe(429)
    expect(await res.json()).toMatchObject({ code: 'rate_limited:usage' })
    // Nothing stored or reserved. (A send the statement refuses counts against the per-minute
    // budget, as any refused send whose refusal the statement decides.)
    const after = await writtenFor(userId)
    expect(after.messages).toBe(before.messages)
    expect(after.user).toMatchObject({ reserved: 0, generating: 0 })
  })

  it(`keeps ${MAX_GENERATING_PER_USER} replies at once under 20 parallel sends`, async () => {
    const { cookie, userId } = await readBefore()
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send(cookie, { content: `${SLOW} ${i}` })),
    )
    const accepted = responses.filter((r) => r.status === 200)
    expect(accepted).toHaveLength(MAX_GENERATING_PER_USER)
    expect(responses.filter((r) => r.status === 429)).toHaveLength(20 - MAX_GENERATING_PER_USER)
    const streaming = await db()
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.userId, userId), sql`${messages.status} = 'streaming'`))
    expect(streaming).toHaveLength(MAX_GENERATING_PER_USER)
    for (const r of accepted) await r.body?.cancel()
  })
})
