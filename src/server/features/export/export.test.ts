// @runs-alone: measures time on the main thread, so runs after the other files, one at a time.
import { readFileSync } from 'node:fs'
import { strFromU8, strToU8, unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exportedAccountSchema, exportedThreadSchema, exportManifestSchema } from '#contract/export.ts'
import { messages, threads, uploads } from '#server/db/schema/index.ts'
import { reshowThread } from '#server/features/chat/shown-branch.ts'
import { createDiskStorage } from '#server/lib/storage.ts'
import { worstStall } from '../../../../tests/helpers/stall.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { EXPORTS_PER_HOUR } from './routes.ts'
import { zipStream } from './zip-stream.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const PNG = new Uint8Array(readFileSync('tests/fixtures/image.png'))
const CO2 = {
  saved: { min: 0.1, mid: 0.2, max: 0.3 },
  actual: { min: 0.01, mid: 0.02, max: 0.03 },
  standard: { min: 0.2, mid: 0.22, max: 0.33 },
}

async function seeded() {
  const { cookie, user } = await t.signUp()
  const userId = user.id as string
  const db = t.deps.database.db
  const [thread] = await db
    .insert(threads)
    .values({ userId, title: 'Lorises & friends', chatModel: 'chatgpt', createdAt: new Date('2025-03-01') })
    .returning()
  const key = await createDiskStorage(`${t.deps.env.DATA_DIR}/uploads`).put(PNG)
  const [upload] = await db
    .insert(uploads)
    .values({
      userId,
      storageKey: key,
      mimeType: 'image/png',
      kind: 'image',
      fileName: 'loris.png',
      size: PNG.length,
    })
    .returning()
  const [first] = await db
    .insert(messages)
    .values({
      userId,
      threadId: thread!.id,
      content: 'Describe this picture',
      response: 'A **slow loris** on a branch.',
      chatModel: 'chatgpt',
      provider: 'openai',
      modelId: 'gpt-4o-mini',
      status: 'complete',
      co2Impact: CO2,
      uploadId: upload!.id,
      mediaType: 'image',
      mediaUrl: `/api/uploads/${upload!.id}`,
      createdAt: new Date('2025-03-01T10:00:00Z'),
      completedAt: new Date('2025-03-01T10:00:05Z'),
    })
    .returning()
  await db.insert(messages).values([
    {
      userId,
      threadId: thread!.id,
      // The second turn follows the first (decision 012).
      parentId: first!.id,
      depth: 1,
      content: 'Thanks',
      response: 'You are welcome.',
      chatModel: 'chatgpt',
      status: 'complete',
      createdAt: new Date('2025-03-01T10:01:00Z'),
    },
  ])
  // On the branch shown, as the app marks it (decision 021).
  await reshowThread(db, thread!.id)
  return { cookie, userId, thread: thread!, upload: upload! }
}

describe('GET /api/threads/:id/export', () => {
  it('exports a thread as JSON with models, CO2 and dates, and as Markdown', async () => {
    const { cookie, thread } = await seeded()
    const res = await t.request(`/api/threads/${thread.id}/export?format=json`, { cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toContain('lorises-friends.json')
    const exported = exportedThreadSchema.parse(await res.json())
    expect(exported.thread.title).toBe('Lorises & friends')
    expect(exported.messages).toHaveLength(2)
    expect(exported.messages[1]).toMatchObject({
      parentId: exported.messages[0]!.id,
      version: 1,
      shown: true,
    })
    expect(exported.messages[0]).toMatchObject({
      content: 'Describe this picture',
      modelId: 'gpt-4o-mini',
      chatModel: 'chatgpt',
      version: 1,
      parentId: null,
      origin: 'sent',
      shown: true,
      co2Impact: CO2,
      createdAt: '2025-03-01T10:00:00.000Z',
      completedAt: '2025-03-01T10:00:05.000Z',
      attachment: { fileName: 'loris.png', mimeType: 'image/png', path: null },
    })

    const md = await t.request(`/api/threads/${thread.id}/export?format=markdown`, { cookie })
    expect(md.headers.get('content-type')).toContain('text/markdown')
    const text = await md.text()
    expect(text).toContain('# Lorises & friends')
    expect(text).toContain('## You · 2025-03-01 10:00:00 UTC')
    expect(text).toContain('## ChatGPT (gpt-4o-mini)')
    expect(text).toContain('A **slow loris** on a branch.')
  })

  it("answers 404 for another user's thread and 400 for an unknown format", async () => {
    const { cookie, thread } = await seeded()
    const other = await t.signUp()
    expect((await t.request(`/api/threads/${thread.id}/export`, { cookie: other.cookie })).status).toBe(404)
    expect((await t.request(`/api/threads/${thread.id}/export?format=pdf`, { cookie })).status).toBe(400)
  })
})

describe('GET /api/export', () => {
  it('streams a zip of every thread as JSON and Markdown, the files and the account without secrets', async () => {
    const { cookie, userId, upload } = await seeded()
    const res = await t.request('/api/export', { cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/zip')
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()))
    const names = Object.keys(files).sort()
    expect(names).toEqual([
      'account.json',
      'assistant.json',
      `files/${upload.id}-loris.png`,
      'manifest.json',
      'threads/0001-lorises-friends.json',
      'threads/0001-lorises-friends.md',
      'threads/0002-default.json',
      'threads/0002-default.md',
    ])
    const accountText = strFromU8(files['account.json']!)
    const account = exportedAccountSchema.parse(JSON.parse(accountText))
    expect(account).toMatchObject({ id: userId, hasPassword: true, signsInWithGoogle: false })
    expect(accountText).not.toMatch(/argon|passwordHash|password_hash|stripe|session/i)
    // No instructions written and no project: said so (import-assistant.test.ts has both).
    expect(JSON.parse(strFromU8(files['assistant.json']!))).toMatchObject({
      instructions: null,
      projects: [],
    })
    const thread = exportedThreadSchema.parse(
      JSON.parse(strFromU8(files['threads/0001-lorises-friends.json']!)),
    )
    expect(thread.messages[0]?.attachment?.path).toBe(`files/${upload.id}-loris.png`)
    expect(files[`files/${upload.id}-loris.png`]).toEqual(PNG)
    const manifest = exportManifestSchema.parse(JSON.parse(strFromU8(files['manifest.json']!)))
    expect(manifest.threads.map((th) => th.title)).toEqual(['Lorises & friends', 'Default'])
    expect(strFromU8(files['threads/0001-lorises-friends.md']!)).toContain(
      `Attached: [loris.png](../files/${upload.id}-loris.png)`,
    )
  })

  it('requires a session', async () => {
    expect((await t.request('/api/export')).status).toBe(401)
  })

  it(`answers 429 past ${EXPORTS_PER_HOUR} downloads an hour, saying when to try again`, async () => {
    const { cookie } = await t.signUp()
    const answers = await Promise.all(
      Array.from({ length: EXPORTS_PER_HOUR + 2 }, () =>
        t.request('/api/export', { cookie }).then(async (res) => {
          await res.arrayBuffer()
          return res.status
        }),
      ),
    )
    expect(answers.filter((s) => s === 200)).toHaveLength(EXPORTS_PER_HOUR)
    const refused = await t.request('/api/export', { cookie })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    expect((await refused.json()).message).toMatch(/10 times an hour\. Please try again in \d+ minutes/)
  })
})

/** Every byte of a stream, joined. */
async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  for await (const chunk of stream) chunks.push(chunk)
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
  let at = 0
  for (const c of chunks) {
    all.set(c, at)
    at += c.length
  }
  return all
}

describe('zipStream', () => {
  // The stall includes time the OS did not run the thread: two more tries on a loaded machine.
  it('compresses a large file off the main thread, into a zip that unpacks to it', { retry: 2 }, async () => {
    // 20 MB of text, an upload's size: deflated on the main thread it held it 0.67 s.
    const text = strToU8('The slow loris is a nocturnal primate of South-East Asia. '.repeat(360_000))
    async function* entries() {
      yield { name: 'files/notes.txt', data: text, deflate: true }
      yield { name: 'small.json', data: strToU8('{"a":1}'), deflate: true }
      yield { name: 'photo.png', data: new Uint8Array([137, 80, 78, 71]), deflate: false }
    }
    const { value: zip, stallMs } = await worstStall(() => readAll(zipStream(entries())))
    expect(stallMs).toBeLessThan(200)
    expect(zip.length).toBeLessThan(text.length / 10)
    const files = unzipSync(zip)
    expect(Object.keys(files)).toEqual(['files/notes.txt', 'small.json', 'photo.png'])
    expect(Buffer.compare(files['files/notes.txt']!, text)).toBe(0)
    expect(strFromU8(files['small.json']!)).toBe('{"a":1}')
    expect([...files['photo.png']!]).toEqual([137, 80, 78, 71])
  })

  it('writes stored files from their streams, a chunk per read, deflated or stored as they are', async () => {
    const text = strToU8('The slow loris is a nocturnal primate of South-East Asia. '.repeat(40_000))
    const image = new Uint8Array(600_000).map((_, i) => (i * 7) % 256)
    let pulled = 0
    const chunked = (bytes: Uint8Array) => {
      let at = 0
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (at >= bytes.length) return controller.close()
          pulled++
          controller.enqueue(bytes.subarray(at, at + 64 * 1024))
          at += 64 * 1024
        },
      })
    }
    async function* entries() {
      yield { name: 'files/photo.png', stream: chunked(image), deflate: false }
      yield { name: 'files/notes.txt', stream: chunked(text), deflate: true }
      yield { name: 'manifest.json', data: strToU8('{"a":1}'), deflate: true }
    }
    const reader = zipStream(entries()).getReader()
    const first = await reader.read()
    // The first bytes went out with the first file's first chunk read (and one more, the source
    // stream's own read ahead), not the file.
    expect(pulled).toBeLessThanOrEqual(2)
    const chunks = [first.value as Uint8Array]
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
    }
    const files = unzipSync(Buffer.concat(chunks))
    expect(Object.keys(files)).toEqual(['files/photo.png', 'files/notes.txt', 'manifest.json'])
    expect(Buffer.compare(files['files/notes.txt']!, text)).toBe(0)
    expect(Buffer.compare(files['files/photo.png']!, image)).toBe(0)
    expect(Buffer.concat(chunks).length).toBeLessThan(image.length + text.length / 10)
  })

  it('sends the first bytes before later entries are even read', async () => {
    let produced = 0
    async function* entries() {
      for (let i = 0; i < 3; i++) {
        produced++
        yield { name: `f${i}.txt`, data: strToU8(`file ${i} `.repeat(1000)), deflate: true }
      }
    }
    const reader = zipStream(entries()).getReader()
    const first = await reader.read()
    expect(first.done).toBe(false)
    expect(produced).toBe(1)
    const chunks = [first.value!]
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
    }
    const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
    let at = 0
    for (const c of chunks) {
      all.set(c, at)
      at += c.length
    }
    expect(Object.keys(unzipSync(all))).toEqual(['f0.txt', 'f1.txt', 'f2.txt'])
  })
})
