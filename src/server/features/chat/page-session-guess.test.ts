// A list page on a session this node has read before is one statement, which checks the session
// itself (decision 036). Whatever ended the session behind the node (a sign-out elsewhere, an
// expiry, a deleted account) must be answered 401, as if the session had been read, and show
// nothing. Also run on PostgreSQL: node scripts/test-pg.mjs <this file>.
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { messages, sessions, threads, users } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { reshowThread } from './shown-branch.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const db = () => t.deps.database.db
/** The lookup every signed-in request makes (session.ts), as the statement log shows it. */
const isLookup = (q: string) => /from "sessions" inner join "users"/i.test(q)
/** A page statement checking a guessed session (session.ts sessionLive). */
const isChecked = (q: string) => /exists \(select 1 from sessions s join users s_user/i.test(q)

/** A person with a thread of three exchanges, whose session this node has read. */
async function readBefore() {
  const { cookie, user } = await t.signUp()
  const userId = user.id as string
  const [thread] = await db().insert(threads).values({ userId, title: 'Kept' }).returning()
  let parentId: string | null = null
  for (let i = 0; i < 3; i++) {
    const [row]: { id: string }[] = await db()
      .insert(messages)
      .values({
        userId,
        threadId: thread!.id,
        parentId,
        depth: i,
        content: `Question ${i}`,
        response: `Answer ${i}`,
        chatModel: 'gemini',
        status: 'complete',
      })
      .returning()
    parentId = row!.id
  }
  await reshowThread(db(), thread!.id)
  const res = await t.request('/api/session', { cookie })
  expect(await res.json()).toMatchObject({ user: { id: userId } })
  return { cookie, userId, threadId: thread!.id }
}

const pages = (threadId: string) => ({
  threads: '/api/threads?limit=20',
  messages: `/api/messages?threadId=${threadId}&limit=20`,
})

async function expectSignedOut(res: Response) {
  const body = await res.text()
  expect(res.status, body).toBe(401)
  expect(JSON.parse(body)).toMatchObject({
    code: 'unauthorized:session',
    message: 'Please sign in to continue',
  })
  // Nothing of the history in the answer.
  expect(body).not.toContain('Question')
  expect(body).not.toContain('Kept')
}

describe('a list page on a session read before', () => {
  it.each(['threads', 'messages'] as const)(
    'reads %s in one statement that checks the session',
    async (list) => {
      const { cookie, threadId } = await readBefore()
      t.queries.length = 0
      const res = await t.request(pages(threadId)[list], { cookie })
      expect(res.status).toBe(200)
      const body = (await res.json()) as { items: { title?: string; content?: string }[] }
      expect(body.items.length).toBeGreaterThan(0)
      expect(t.queries).toHaveLength(1)
      expect(t.queries.filter(isChecked)).toHaveLength(1)
      expect(t.queries.filter(isLookup)).toEqual([])
    },
  )

  const endings = {
    'signed out on another node': (userId: string) =>
      db().delete(sessions).where(eq(sessions.userId, userId)),
    expired: (userId: string) =>
      db()
        .update(sessions)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(sessions.userId, userId)),
    'account deleted': (userId: string) => db().delete(users).where(eq(users.id, userId)),
    // A reset on another node raised the epoch; its sessions' rows may not be deleted yet.
    'ended by a password reset': (userId: string) =>
      db()
        .update(users)
        .set({ sessionEpoch: sql`${users.sessionEpoch} + 1` })
        .where(eq(users.id, userId)),
  }
  for (const [ending, end] of Object.entries(endings))
    it.each(['threads', 'messages'] as const)(
      `answers %s with 401 once the session was ${ending}`,
      async (list) => {
        const { cookie, userId, threadId } = await readBefore()
        await end(userId)
        t.queries.length = 0
        await expectSignedOut(await t.request(pages(threadId)[list], { cookie }))
        // Tried on the guess, then the session was read: that is what answered.
        expect(t.queries.filter(isChecked)).toHaveLength(1)
        expect(t.queries.filter(isLookup)).toHaveLength(1)
      },
    )

  it('answers 401, not an empty page, for an empty thread once the session has ended', async () => {
    const { cookie, userId } = await readBefore()
    const [empty] = await db().insert(threads).values({ userId, title: 'Empty' }).returning()
    const live = await t.request(`/api/messages?threadId=${empty!.id}&limit=20`, { cookie })
    expect(await live.json()).toEqual({ items: [], nextCursor: null })
    await db().delete(sessions).where(eq(sessions.userId, userId))
    await expectSignedOut(await t.request(`/api/messages?threadId=${empty!.id}&limit=20`, { cookie }))
  })

  it.each([
    ['threads', '/api/threads?limit=0'],
    ['threads', '/api/threads?cursor=nonsense'],
    ['messages', '/api/messages?limit=20&cursor=nonsense'],
    ['messages', '/api/messages?threadId=not-an-id&limit=20'],
  ])('answers a bad %s query %s with 400 on a live session and 401 on an ended one', async (_list, path) => {
    const { cookie, userId } = await readBefore()
    const live = await t.request(path, { cookie })
    expect(live.status, await live.text()).toBe(400)
    await db().delete(sessions).where(eq(sessions.userId, userId))
    await expectSignedOut(await t.request(path, { cookie }))
  })

  it("answers another person's thread with 404 and nothing of it", async () => {
    const owner = await readBefore()
    const other = await readBefore()
    const res = await t.request(pages(owner.threadId).messages, { cookie: other.cookie })
    const body = await res.text()
    expect(res.status, body).toBe(404)
    expect(JSON.parse(body)).toMatchObject({ code: 'not_found:thread' })
    expect(body).not.toContain('Question')
  })

  it.each(['threads', 'messages'] as const)(
    'answers %s asked with no page size on the session as it is now',
    async (list) => {
      const { cookie, userId, threadId } = await readBefore()
      const path = list === 'threads' ? '/api/threads' : `/api/messages?threadId=${threadId}`
      expect((await t.request(path, { cookie })).status).toBe(200)
      await db().delete(sessions).where(eq(sessions.userId, userId))
      await expectSignedOut(await t.request(path, { cookie }))
    },
  )

  it('does not guess after signing out on this node: the lookup answers at once', async () => {
    const { cookie, threadId } = await readBefore()
    expect((await t.request('/api/logout', { method: 'POST', cookie })).status).toBe(200)
    t.queries.length = 0
    await expectSignedOut(await t.request(pages(threadId).messages, { cookie }))
    expect(t.queries.filter(isChecked)).toEqual([])
    expect(t.queries.filter(isLookup)).toHaveLength(1)
  })
})
