import { readFileSync } from 'node:fs'
import { rm, stat, utimes } from 'node:fs/promises'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { messagePageSchema } from '#contract/messages.ts'
import { createShareResponse, sharedConversationSchema, shareLinkListSchema } from '#contract/sharing.ts'
import { threadSchema } from '#contract/threads.ts'
import { messages, threads, uploads } from '#server/db/schema/index.ts'
import { withHead } from '#server/lib/serve-client.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { ownerWithThread } from '../../../../tests/helpers/thread-kit.ts'
import { shareHeadFor } from './routes.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const PNG = new Uint8Array(readFileSync('tests/fixtures/image.png'))

async function share(cookie: string, threadId: string, json: unknown = {}) {
  const res = await t.request(`/api/threads/${threadId}/share`, { method: 'POST', cookie, json })
  expect(res.status).toBe(201)
  return createShareResponse.parse(await res.json())
}

const read = (token: string) => t.request(`/api/shares/${token}`)

describe('sharing a thread', () => {
  it('creates an unguessable link to a snapshot fixed at sharing time', async () => {
    const { cookie, thread, add } = await ownerWithThread(t)
    await add('Where do lorises live?', 'In **Borneo** and Java.', { createdAt: new Date('2025-01-01') })
    const { url, token } = await share(cookie, thread.id)
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/) // 256 bits
    expect(url).toBe(`http://localhost:5000/share/${token}`)
    await add('Are they venomous?', 'Yes, uniquely among primates.')

    const res = await read(token)
    expect(res.status).toBe(200)
    expect(res.headers.get('x-robots-tag')).toBe('noindex')
    expect(res.headers.get('cache-control')).toBe('no-store')
    const text = await res.text()
    // The owner's message ids are theirs: a reader is given none.
    const ids = (await t.deps.database.db.select({ id: messages.id }).from(messages)).map((m) => m.id)
    expect(ids.length).toBeGreaterThan(0)
    for (const id of ids) expect(text).not.toContain(id)
    const body = sharedConversationSchema.parse(JSON.parse(text))
    expect(Object.keys(body.exchanges[0] ?? {})).not.toContain('id')
    expect(body.title).toBe('Slow lorises')
    expect(body.allowIndexing).toBe(false)
    expect(body.exchanges.map((e) => [e.content, e.response])).toEqual([
      ['Where do lorises live?', 'In **Borneo** and Java.'],
    ])
    // Anyone can read it: no session was sent. Another share sees the new exchange.
    const second = await share(cookie, thread.id, { allowIndexing: true })
    expect(second.token).not.toBe(token)
    const later = await read(second.token)
    expect(later.headers.get('x-robots-tag')).toBeNull()
    expect(sharedConversationSchema.parse(await later.json()).exchanges).toHaveLength(2)
  })

  it('answers 404 to anyone but the owner, and for unknown or malformed tokens', async () => {
    const { thread, add } = await ownerWithThread(t)
    await add('private', 'stuff')
    const other = await t.signUp()
    const res = await t.request(`/api/threads/${thread.id}/share`, {
      method: 'POST',
      cookie: other.cookie,
      json: {},
    })
    expect(res.status).toBe(404)
    expect((await res.json()).code).toBe('not_found:thread')
    expect((await t.request(`/api/threads/${thread.id}/share`, { method: 'POST', json: {} })).status).toBe(
      401,
    )
    expect((await read('A'.repeat(43))).status).toBe(404)
    expect((await read('short')).status).toBe(400)
  })

  it('lists links, revokes them (owner only), and a revoked or deleted link answers 404', async () => {
    const { cookie, thread, add } = await ownerWithThread(t)
    await add('hello', 'world')
    const a = await share(cookie, thread.id)
    const list = shareLinkListSchema.parse(await (await t.request('/api/shares', { cookie })).json())
    expect(list.map((l) => [l.token, l.title, l.threadId])).toEqual([[a.token, 'Slow lorises', thread.id]])

    const other = await t.signUp()
    const stolen = await t.request(`/api/shares/${a.token}`, { method: 'DELETE', cookie: other.cookie })
    expect(stolen.status).toBe(404)
    expect((await read(a.token)).status).toBe(200)

    const revoked = await t.request(`/api/shares/${a.token}`, { method: 'DELETE', cookie })
    expect(revoked.status).toBe(200)
    const gone = await read(a.token)
    expect(gone.status).toBe(404)
    expect((await gone.json()).code).toBe('not_found:share')

    const b = await share(cookie, thread.id)
    await t.request(`/api/threads/${thread.id}`, { method: 'DELETE', cookie })
    expect((await read(b.token)).status).toBe(404)
    expect(await (await t.request('/api/shares', { cookie })).json()).toEqual([])
  })

  it("serves the snapshot's files only through its token", async () => {
    const { cookie, userId, thread, add } = await ownerWithThread(t)
    const key = await putFile(PNG)
    const png = { mimeType: 'image/png', kind: 'image', size: PNG.length } as const
    const upload = await uploadRow(userId, key, { ...png, fileName: 'a.png' })
    const unshared = await uploadRow(userId, key, { ...png, fileName: 'b.png' })
    await add('Look', 'A picture', mediaOf(upload, 'image'))
    const { token } = await share(cookie, thread.id)
    const body = sharedConversationSchema.parse(await (await read(token)).json())
    const url = body.exchanges[0]?.mediaUrl
    expect(body.exchanges[0]).toMatchObject({ mediaName: 'a.png', mediaMime: 'image/png' })
    expect(url).toBe(`/api/shares/${token}/files/${upload.id}`)
    const file = await t.request(url!)
    expect(file.status).toBe(200)
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG)
    expect(file.headers.get('content-security-policy')).toContain('sandbox')
    // An upload of the same owner that is not in the snapshot, or the file after revoking: 404.
    expect((await t.request(`/api/shares/${token}/files/${unshared.id}`)).status).toBe(404)
    await t.request(`/api/shares/${token}`, { method: 'DELETE', cookie })
    expect((await t.request(url!)).status).toBe(404)
  })

  it('lets a signed-in visitor continue the conversation in a thread of their own', async () => {
    const { cookie, thread, add } = await ownerWithThread(t)
    await add('First question', 'First answer', { createdAt: new Date('2025-02-01T10:00:00Z') })
    await add('Second question', 'Second answer', { createdAt: new Date('2025-02-01T10:05:00Z') })
    const { token } = await share(cookie, thread.id)
    expect((await t.request(`/api/shares/${token}/continue`, { method: 'POST' })).status).toBe(401)
    const visitor = await t.signUp()
    const res = await t.request(`/api/shares/${token}/continue`, { method: 'POST', cookie: visitor.cookie })
    expect(res.status).toBe(201)
    const copy = threadSchema.parse(await res.json())
    expect(copy).toMatchObject({ title: 'Slow lorises', chatModel: 'loris', isDefault: false })
    const msgs = messagePageSchema.parse(
      await (await t.request(`/api/messages?threadId=${copy.id}`, { cookie: visitor.cookie })).json(),
    ).items
    expect(msgs.map((m) => [m.content, m.response, m.createdAt])).toEqual([
      ['First question', 'First answer', '2025-02-01T10:00:00.000Z'],
      ['Second question', 'Second answer', '2025-02-01T10:05:00.000Z'],
    ])
    expect(msgs.every((m) => m.userId === visitor.user.id)).toBe(true)
  })

  // Decision 042: the copy's uploads rows are not visible until it commits, so an owner deleting
  // the thread meanwhile would find no row for the bytes; the copy marks them as just used first.
  it('a copy marks its files as just used, and leaves out a file no longer stored', async () => {
    const { cookie, userId, thread, add } = await ownerWithThread(t)
    const bytes = new TextEncoder().encode(`shared then copied ${Date.now()}`)
    const key = await putFile(bytes)
    const path = join(t.deps.env.DATA_DIR, 'uploads', key.slice(0, 2), key)
    const upload = await uploadRow(userId, key, {
      mimeType: 'text/plain',
      kind: 'document',
      fileName: 'n.txt',
      size: 1,
    })
    await add('Read this', 'Read', mediaOf(upload, 'document'))
    const { token } = await share(cookie, thread.id)
    const hoursAgo = new Date(Date.now() - 3 * 60 * 60_000)
    await utimes(path, hoursAgo, hoursAgo)
    const continueAs = async (visitorCookie: string) => {
      const res = await t.request(`/api/shares/${token}/continue`, { method: 'POST', cookie: visitorCookie })
      expect(res.status).toBe(201)
      const copy = threadSchema.parse(await res.json())
      return messagePageSchema.parse(
        await (await t.request(`/api/messages?threadId=${copy.id}`, { cookie: visitorCookie })).json(),
      ).items
    }
    const visitor = await t.signUp()
    const [copied] = await continueAs(visitor.cookie)
    expect(copied?.mediaName).toBe('n.txt')
    expect((await stat(path)).mtimeMs).toBeGreaterThan(Date.now() - 60_000)

    // Gone from storage (removed before the copy could mark it): the exchange comes without it.
    await rm(path)
    const late = await t.signUp()
    const [bare] = await continueAs(late.cookie)
    expect(bare).toMatchObject({ content: 'Read this', mediaUrl: null, mediaName: null })
  })

  it('shares the branch the thread shows, with each reply model and time; a copy is one chain', async () => {
    const { cookie, thread, add } = await ownerWithThread(t)
    const first = await add('Question', 'Answer', {
      modelId: 'SmolLM2-360M-Instruct-Q8_0.gguf',
      createdAt: new Date('2025-02-01T10:00:00Z'),
      completedAt: new Date('2025-02-01T10:00:04Z'),
    })
    await add('Follow-up', 'Old reply', { selectedAt: new Date('2025-02-01T10:01:00Z') })
    // A regenerated version of the follow-up, selected after: the one shown.
    await add('Follow-up', 'New reply', {
      parentId: first.id,
      origin: 'regenerate',
      selectedAt: new Date('2025-02-01T10:02:00Z'),
    })
    const { token } = await share(cookie, thread.id)
    const body = sharedConversationSchema.parse(await (await read(token)).json())
    expect(body.exchanges.map((e) => e.response)).toEqual(['Answer', 'New reply'])
    expect(body.exchanges[0]).toMatchObject({
      modelName: 'Loris eco (SmolLM2 360M)',
      completedAt: '2025-02-01T10:00:04.000Z',
    })

    const visitor = await t.signUp()
    const res = await t.request(`/api/shares/${token}/continue`, { method: 'POST', cookie: visitor.cookie })
    const copy = threadSchema.parse(await res.json())
    const msgs = messagePageSchema.parse(
      await (await t.request(`/api/messages?threadId=${copy.id}`, { cookie: visitor.cookie })).json(),
    ).items
    expect(msgs.map((m) => m.response)).toEqual(['Answer', 'New reply'])
    expect(msgs[1]?.parentId).toBe(msgs[0]?.id)
    const rows = await t.deps.database.db.select().from(messages)
    // Copies, not messages the reader sent: no trees for them.
    expect(rows.filter((r) => r.userId === visitor.user.id).map((r) => r.origin)).toEqual(['copy', 'copy'])
  })

  it('refuses to share an empty thread', async () => {
    const { cookie, thread } = await ownerWithThread(t)
    const res = await t.request(`/api/threads/${thread.id}/share`, { method: 'POST', cookie, json: {} })
    expect(res.status).toBe(422)
  })
})

describe('the shared page shell', () => {
  const shell =
    '<html><head><title>Loris</title><meta name="description" content="d" /><meta property="og:type" content="website" /><meta property="og:title" content="Loris" /><meta property="og:description" content="x" /></head><body></body></html>'

  it('carries the Open Graph card and noindex unless the owner allowed indexing', async () => {
    const { cookie, thread, add } = await ownerWithThread(t)
    await add('What is a <script>loris</script> "really"?', 'An animal.')
    const { token } = await share(cookie, thread.id)
    const meta = await shareHeadFor(t.deps)(token)
    const html = withHead(shell, meta)
    expect(html).toContain('<title>Slow lorises | Shared on Loris</title>')
    expect(html).toContain('<meta property="og:title" content="Slow lorises | Shared on Loris"')
    expect(html).toContain('content="What is a &lt;script&gt;loris&lt;/script&gt; &quot;really&quot;?"')
    expect(html).toContain(`<meta property="og:url" content="http://localhost:5000/share/${token}" />`)
    expect(html).toContain('<meta name="robots" content="noindex" />')
    const indexed = await share(cookie, thread.id, { allowIndexing: true })
    expect(withHead(shell, await shareHeadFor(t.deps)(indexed.token))).not.toContain('noindex')
    expect(await shareHeadFor(t.deps)('B'.repeat(43))).toBeNull()
  })

  it("writes a title and first message holding '$' as they are", async () => {
    const { cookie, thread, add } = await ownerWithThread(t)
    const tricky = "Should I pay $10? $& $` $'"
    await t.deps.database.db.update(threads).set({ title: tricky }).where(eq(threads.id, thread.id))
    await add(`   ${tricky}\n\n  and more`, 'Maybe.')
    const { token } = await share(cookie, thread.id)
    const html = withHead(shell, await shareHeadFor(t.deps)(token))
    const escaped = "Should I pay $10? $&amp; $` $'"
    expect(html).toBe(
      `<html><head><title>${escaped} | Shared on Loris</title><meta name="description" content="${escaped} and more" /><meta property="og:type" content="article" /><meta property="og:title" content="${escaped} | Shared on Loris" /><meta property="og:description" content="${escaped} and more" />    <meta property="og:url" content="http://localhost:5000/share/${token}" />\n    <meta name="robots" content="noindex" />\n  </head><body></body></html>`,
    )
  })
})

/** An uploads row of the user's for the stored object `storageKey`. */
async function uploadRow(
  userId: string,
  storageKey: string,
  file: Pick<typeof uploads.$inferInsert, 'mimeType' | 'kind' | 'fileName' | 'size'>,
) {
  const [row] = await t.deps.database.db
    .insert(uploads)
    .values({ userId, storageKey, ...file })
    .returning()
  if (!row) throw new Error('no upload row')
  return row
}

/** The columns of a message carrying `upload`. */
function mediaOf(upload: typeof uploads.$inferSelect, mediaType: 'image' | 'document') {
  const { id, fileName: mediaName, mimeType: mediaMime } = upload
  return { uploadId: id, mediaType, mediaUrl: `/api/uploads/${id}`, mediaName, mediaMime }
}

async function putFile(bytes: Uint8Array): Promise<string> {
  const { createDiskStorage } = await import('#server/lib/storage.ts')
  return createDiskStorage(`${t.deps.env.DATA_DIR}/uploads`).put(bytes)
}
