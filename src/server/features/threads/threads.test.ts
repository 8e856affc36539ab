import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { messagePageSchema } from '#contract/messages.ts'
import { threadListSchema, threadPageSchema, threadSchema } from '#contract/threads.ts'
import { messages, threads } from '#server/db/schema/index.ts'
import { reshowThread } from '#server/features/chat/shown-branch.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { ownerWithDefault } from '../../../../tests/helpers/thread-kit.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const signedIn = () => ownerWithDefault(t)

async function addThread(userId: string, title = 'Trip plans') {
  const [row] = await t.deps.database.db
    .insert(threads)
    .values({ userId, title, chatModel: 'loris' })
    .returning()
  return row!
}

async function addMessage(userId: string, threadId: string, content = 'What is a loris?') {
  const [row] = await t.deps.database.db
    .insert(messages)
    .values({
      userId,
      threadId,
      content,
      response: 'A small primate.',
      chatModel: 'chatgpt',
      status: 'complete',
    })
    .returning()
  return row!
}

const put = (path: string, cookie: string, json: unknown) => t.request(path, { method: 'PUT', cookie, json })

describe('GET /api/threads', () => {
  it('lists Default first, flagged, then the most recent, with ISO dates', async () => {
    const { cookie, userId } = await signedIn()
    const older = await addThread(userId, 'Older')
    await t.deps.database.db
      .update(threads)
      .set({ lastMessageAt: new Date('2024-01-01T00:00:00Z') })
      .where(eq(threads.id, older.id))
    const newer = await addThread(userId, 'Newer')
    const res = await t.request('/api/threads', { cookie })
    expect(res.status).toBe(200)
    const list = threadListSchema.parse(await res.json())
    expect(list.map((th) => [th.title, th.isDefault])).toEqual([
      ['Default', true],
      ['Newer', false],
      ['Older', false],
    ])
    expect(list[1]).toMatchObject({ id: newer.id, chatModel: 'loris', isFavorite: false })
    expect(list[2]?.lastMessageAt).toBe('2024-01-01T00:00:00.000Z')
  })

  it('requires a session', async () => {
    expect((await t.request('/api/threads')).status).toBe(401)
  })

  it("answers a page with each thread's JSON as the database wrote it: the whole list's values, read once for the cursor", async () => {
    const { cookie, userId } = await signedIn()
    for (let i = 0; i < 12; i++) await addThread(userId, `Page thread ${i}`)
    const whole = threadListSchema.parse(await (await t.request('/api/threads', { cookie })).json())
    const parse = vi.spyOn(JSON, 'parse')
    try {
      const res = await t.request('/api/threads?limit=10', { cookie })
      const threadsRead = parse.mock.calls.filter(([text]) => String(text).includes('"title"')).length
      // The last thread's, for the cursor; the others go out as PostgreSQL wrote them (decision 045).
      expect(threadsRead).toBe(1)
      parse.mockRestore()
      const page = threadPageSchema.parse(await res.json())
      expect(page.items).toEqual(whole.slice(0, 10))
      expect(page.nextCursor).toEqual(expect.any(String))
    } finally {
      parse.mockRestore()
    }
  })

  it('pages favourites right after Default, so the oldest starred thread is on the first page', async () => {
    const { cookie, userId } = await signedIn()
    const base = Date.parse('2025-01-01T00:00:00Z')
    const rows = await t.deps.database.db
      .insert(threads)
      .values(
        Array.from({ length: 60 }, (_, i) => ({
          userId,
          title: `Thread ${i}`,
          lastMessageAt: new Date(base + i * 60_000),
          isFavorite: i === 0,
        })),
      )
      .returning()
    const first = threadPageSchema.parse(await (await t.request('/api/threads?limit=50', { cookie })).json())
    expect(first.items[0]?.isDefault).toBe(true)
    expect(first.items[1]).toMatchObject({ id: rows[0]!.id, isFavorite: true })
    // The rest follow from the cursor, none twice; a cursor from before (three parts) still reads.
    const next = threadPageSchema.parse(
      await (await t.request(`/api/threads?limit=50&cursor=${first.nextCursor}`, { cookie })).json(),
    )
    const ids = [...first.items, ...next.items].map((th) => th.id)
    expect(new Set(ids).size).toBe(61)
    expect(next.nextCursor).toBeNull()
    const last = first.items.at(-1)!
    const old = Buffer.from(JSON.stringify(['f', '2025-01-01T00:09:30.000000Z', last.id])).toString(
      'base64url',
    )
    const res = await t.request(`/api/threads?limit=50&cursor=${old}`, { cookie })
    expect(res.status).toBe(200)
    expect(threadPageSchema.parse(await res.json()).items.map((th) => th.title)).toEqual(
      Array.from({ length: 9 }, (_, i) => `Thread ${9 - i}`),
    )
  })
})

describe('favorite, rename, delete', () => {
  it('favorites and unfavorites', async () => {
    const { cookie, userId } = await signedIn()
    const thread = await addThread(userId)
    const res = await put(`/api/threads/${thread.id}/favorite`, cookie, { isFavorite: true })
    expect(res.status).toBe(200)
    expect(threadSchema.parse(await res.json())).toMatchObject({ id: thread.id, isFavorite: true })
    const back = await put(`/api/threads/${thread.id}/favorite`, cookie, { isFavorite: false })
    expect((await back.json()).isFavorite).toBe(false)
  })

  it('renames with a trimmed title of 1 to 120 characters', async () => {
    const { cookie, userId } = await signedIn()
    const thread = await addThread(userId)
    const res = await put(`/api/threads/${thread.id}/rename`, cookie, { title: '  Holiday  ' })
    expect(res.status).toBe(200)
    expect((await res.json()).title).toBe('Holiday')
    for (const title of ['   ', 'x'.repeat(121)]) {
      const bad = await put(`/api/threads/${thread.id}/rename`, cookie, { title })
      expect(bad.status).toBe(400)
      expect((await bad.json()).code).toBe('bad_request:input')
    }
    expect((await put(`/api/threads/${thread.id}/rename`, cookie, { title: 'y'.repeat(120) })).status).toBe(
      200,
    )
  })

  it('deletes a thread with its messages', async () => {
    const { cookie, userId } = await signedIn()
    const thread = await addThread(userId)
    const message = await addMessage(userId, thread.id)
    const res = await t.request(`/api/threads/${thread.id}`, { method: 'DELETE', cookie })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ ok: true, id: thread.id })
    const left = await t.deps.database.db.select().from(messages).where(eq(messages.id, message.id))
    expect(left).toEqual([])
    expect((await t.request(`/api/messages?threadId=${thread.id}`, { cookie })).status).toBe(404)
  })

  it('refuses every change to the Default thread with 403', async () => {
    const { cookie } = await signedIn()
    const [def] = threadListSchema.parse(await (await t.request('/api/threads', { cookie })).json())
    const attempts = [
      put(`/api/threads/${def!.id}/favorite`, cookie, { isFavorite: true }),
      put(`/api/threads/${def!.id}/rename`, cookie, { title: 'Mine' }),
      t.request(`/api/threads/${def!.id}`, { method: 'DELETE', cookie }),
    ]
    const bodies = await Promise.all(
      attempts.map(async (p) => {
        const res = await p
        return [res.status, (await res.json()).message]
      }),
    )
    expect(bodies).toEqual([
      [403, 'The Default thread cannot be favorited'],
      [403, 'The Default thread cannot be renamed'],
      [403, 'The Default thread cannot be deleted'],
    ])
    const [still] = threadListSchema.parse(await (await t.request('/api/threads', { cookie })).json())
    expect(still).toMatchObject({ title: 'Default', isFavorite: false })
  })

  it("answers 404 for another user's thread and leaves it alone", async () => {
    const owner = await signedIn()
    const thread = await addThread(owner.userId, 'Private')
    const { cookie } = await signedIn()
    const attempts = [
      put(`/api/threads/${thread.id}/favorite`, cookie, { isFavorite: true }),
      put(`/api/threads/${thread.id}/rename`, cookie, { title: 'Stolen' }),
      t.request(`/api/threads/${thread.id}`, { method: 'DELETE', cookie }),
      t.request(`/api/messages?threadId=${thread.id}`, { cookie }),
    ]
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404)
      expect((await res.json()).code).toBe('not_found:thread')
    }
    const [row] = await t.deps.database.db.select().from(threads).where(eq(threads.id, thread.id))
    expect(row).toMatchObject({ title: 'Private', isFavorite: false })
  })

  it('answers 400 for a malformed thread id', async () => {
    const { cookie } = await signedIn()
    expect((await put('/api/threads/not-a-uuid/favorite', cookie, { isFavorite: true })).status).toBe(400)
  })
})

describe('POST /api/threads/create-from-message', () => {
  it('creates a thread seeded with a copy of the exchange, in its mode', async () => {
    const { cookie, userId } = await signedIn()
    const source = await addThread(userId)
    const message = await addMessage(
      userId,
      source.id,
      'Tell me about slow lorises and their habitat in Borneo please',
    )
    // Written around the app: its thread's shown branch marked as a send would.
    await reshowThread(t.deps.database.db, source.id)
    const res = await t.request('/api/threads/create-from-message', {
      method: 'POST',
      cookie,
      json: { messageId: message.id },
    })
    expect(res.status).toBe(201)
    const thread = threadSchema.parse(await res.json())
    expect(thread).toMatchObject({ chatModel: 'chatgpt', isDefault: false, isFavorite: false })
    // 61 characters: cut at the last word within 60.
    expect(thread.title).toBe('Tell me about slow lorises and their habitat in Borneo…')
    const copied = messagePageSchema.parse(
      await (await t.request(`/api/messages?threadId=${thread.id}`, { cookie })).json(),
    ).items
    expect(copied).toHaveLength(1)
    expect(copied[0]).toMatchObject({
      content: message.content,
      response: 'A small primate.',
      threadId: thread.id,
    })
    expect(copied[0]?.id).not.toBe(message.id)
    // The source exchange stays where it was.
    const original = messagePageSchema.parse(
      await (await t.request(`/api/messages?threadId=${source.id}`, { cookie })).json(),
    ).items
    expect(original.map((m: { id: string }) => m.id)).toEqual([message.id])
  })

  it("answers 404 for another user's message", async () => {
    const owner = await signedIn()
    const message = await addMessage(owner.userId, (await addThread(owner.userId)).id)
    const { cookie } = await signedIn()
    const res = await t.request('/api/threads/create-from-message', {
      method: 'POST',
      cookie,
      json: { messageId: message.id },
    })
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({
      code: 'not_found:message',
      error: 'This message does not exist',
    })
  })
})
