// What a crafted or damaged import file must not do: hold the server's memory, fail part-way with
// a 500 that retries never get past, or store a value another page cannot read.
import { readFileSync } from 'node:fs'
import { eq } from 'drizzle-orm'
import { strToU8, zipSync } from 'fflate'
import { HTTPException } from 'hono/http-exception'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { co2HistoryResponse } from '#contract/impact.ts'
import { IMPORT_LIMITS, importReportSchema } from '#contract/import.ts'
import { threadListSchema } from '#contract/threads.ts'
import { messages, threads } from '#server/db/schema/index.ts'
import { createDiskStorage } from '#server/lib/storage.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { importSlots } from './import-slots.ts'
import { jsonBytes as json, lorisMessage, lorisPicture, lorisThreadExport } from './loris-export-kit.ts'
import { type ImportedThread, parseImportFile } from './parse.ts'
import { storeImport } from './store-import.ts'

const PNG = new Uint8Array(readFileSync('tests/fixtures/image.png'))

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const db = () => t.deps.database.db

async function importFile(cookie: string, bytes: Uint8Array, name: string) {
  const form = new FormData()
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], name))
  return t.request('/api/import', { method: 'POST', cookie, body: form })
}

/** A ChatGPT conversation of one exchange. */
function conversation(id: string, text: string, time = 1_700_000_000, title = id) {
  const m = (role: string, s: string) => ({
    author: { role },
    content: { content_type: 'text', parts: [s] },
    create_time: time,
    metadata: {},
  })
  return {
    title,
    conversation_id: id,
    create_time: time,
    current_node: 'a',
    mapping: {
      u: { id: 'u', parent: null, children: ['a'], message: m('user', text) },
      a: { id: 'a', parent: 'u', children: [], message: m('assistant', `re ${text}`) },
    },
  }
}

/** A Loris export of one thread; `message` overrides fields of its one message. */
function lorisThread(title: string, message: Record<string, unknown> = {}, thread: object = {}) {
  const at = new Date().toISOString()
  return lorisThreadExport(title, [lorisMessage(at, { id: crypto.randomUUID(), ...message })], { at, thread })
}

const picture = (path: string) => lorisPicture(path, PNG.length)

describe('files in an import zip', () => {
  it('reads only the files that imported messages name', async () => {
    const zeros = new Uint8Array(2 * 1024 * 1024)
    const zip = zipSync({
      'files/pic.png': PNG,
      'files/f1': zeros,
      'files/f2': zeros,
      'files/f3': zeros,
      'threads/0001-a.json': json(lorisThread('A', { attachment: picture('files/pic.png') })),
    })
    const parsed = await parseImportFile(zip)
    expect([...parsed.files.keys()]).toEqual(['files/pic.png'])
    // A ChatGPT zip names no files: none is read.
    const chatgpt = await parseImportFile(
      zipSync({ 'files/f1': zeros, 'conversations.json': json([conversation('c', 'hi')]) }),
    )
    expect(chatgpt.files.size).toBe(0)
  })

  it('leaves the files past the budget out, and the report says so', async () => {
    const zip = zipSync({
      'files/a.png': PNG,
      'files/b.png': PNG,
      'threads/0001-a.json': json(lorisThread('A', { attachment: picture('files/a.png') })),
      'threads/0002-b.json': json(lorisThread('B', { attachment: picture('files/b.png') })),
    })
    const parsed = await parseImportFile(zip, { ...IMPORT_LIMITS, maxFilesBytes: PNG.length + 1 })
    expect([...parsed.files.keys()]).toEqual(['files/a.png'])
    expect([...parsed.filesOverBudget]).toEqual(['files/b.png'])
    const { user } = await t.signUp()
    const storage = createDiskStorage(`${t.deps.env.DATA_DIR}/uploads`)
    const report = await storeImport(db(), user.id as string, parsed, storage, t.deps.log)
    expect(report).toMatchObject({ threadsImported: 2, messagesImported: 2 })
    expect(report.notes).toEqual([
      `1 attached file left out: one import brings back at most ${IMPORT_LIMITS.maxFilesBytes / 1024 / 1024} MB of files. The messages are imported without them`,
    ])
  })
})

describe('imports at once', () => {
  it('answers 503 with Retry-After while one runs and two wait, and imports again after', async () => {
    const { cookie } = await t.signUp()
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const holders = [0, 1, 2].map(() => importSlots.run(() => held))
    const res = await importFile(cookie, json([conversation('busy', 'hi')]), 'conversations.json')
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('30')
    expect((await res.json()).message).toContain('try your import again')
    release()
    await Promise.all(holders)
    const again = await importFile(cookie, json([conversation('busy', 'hi')]), 'conversations.json')
    expect(importReportSchema.parse(await again.json())).toMatchObject({ threadsImported: 1 })
  })
})

describe('values the database would refuse', () => {
  it('strips NUL characters instead of failing part-way', async () => {
    const { cookie, user } = await t.signUp()
    const file = json([
      conversation('c1', 'one'),
      conversation('c2', 'a\u0000b', 1_700_000_000, 'with\u0000nul'),
      conversation('c3', 'three'),
    ])
    const res = await importFile(cookie, file, 'conversations.json')
    expect(res.status).toBe(200)
    expect(importReportSchema.parse(await res.json())).toMatchObject({ threadsImported: 3, skipped: [] })
    const rows = await db()
      .select({ content: messages.content, response: messages.response })
      .from(messages)
      .where(eq(messages.userId, user.id as string))
    expect(rows).toContainEqual({ content: 'ab', response: 're ab' })
    const [thread] = await db().select().from(threads).where(eq(threads.importSource, 'chatgpt:c2'))
    expect(thread?.title).toBe('withnul')
  })

  it('skips a conversation with a date PostgreSQL cannot hold, with a reason, and imports the rest', async () => {
    const { cookie } = await t.signUp()
    const file = json([
      conversation('d1', 'one'),
      // 0000-01-01T00:00:00Z: year 0, which timestamptz refuses.
      conversation('d2', 'two', -62_167_219_200),
      conversation('d3', 'three'),
      // Past what a Date holds: no time, as when the export has none (not a file that fails).
      conversation('d4', 'four', 1e20),
    ])
    for (const attempt of [1, 2]) {
      const res = await importFile(cookie, file, 'conversations.json')
      expect(res.status).toBe(200)
      const report = importReportSchema.parse(await res.json())
      expect(report.threadsImported).toBe(attempt === 1 ? 3 : 0)
      expect(report.skipped).toContainEqual({
        title: 'd2',
        reason: 'a date before 1970 or after 9999 (createdAt)',
      })
    }
  })

  it('skips a Loris thread with a number an int4 cannot hold or a date out of range, with a reason', async () => {
    const { cookie } = await t.signUp()
    for (const [message, where] of [
      [{ inputTokens: 3_000_000_000 }, 'messages.0.inputTokens'],
      [{ latencyMs: -1 }, 'messages.0.latencyMs'],
      [{ createdAt: '0000-01-01T00:00:00Z' }, 'messages.0.createdAt'],
    ] as const) {
      const res = await importFile(cookie, json(lorisThread('Odd', message)), 'odd.json')
      expect(res.status).toBe(200)
      const report = importReportSchema.parse(await res.json())
      expect(report.threadsImported).toBe(0)
      expect(report.skipped[0]?.reason).toContain(where)
    }
  })

  it('stores the first and last dates it accepts as the same instants', async () => {
    const { cookie } = await t.signUp()
    const thread = { createdAt: '1970-01-01T00:00:00.000Z', lastMessageAt: '9999-12-31T23:59:59.999Z' }
    const res = await importFile(cookie, json(lorisThread('Far', {}, thread)), 'far.json')
    expect(importReportSchema.parse(await res.json())).toMatchObject({ threadsImported: 1 })
    const list = threadListSchema.parse(await (await t.request('/api/threads', { cookie })).json())
    expect(list.find((th) => th.title === 'Far')).toMatchObject(thread)
  })

  it('keeps an impact Loris can read, imports any other as none, and the CO2 history still answers', async () => {
    const { cookie, user } = await t.signUp()
    const g = (mid: number) => ({ min: mid, max: mid, mid })
    const good = {
      saved: g(2),
      actual: g(1),
      standard: g(3),
      inputs: {
        provider: 'google',
        model: 'gemini-2.5-flash-lite',
        outputTokens: 10,
        latencySeconds: 1,
        zone: 'USA',
        methodVersion: 'ecologits-0.9.1',
      },
    }
    for (const [title, co2Impact] of [
      ['Good', good],
      ['Junk', { saved: { mid: 'abc' } }],
      ['Text', 'abc'],
    ] as const) {
      const res = await importFile(cookie, json(lorisThread(title, { co2Impact })), `${title}.json`)
      expect(importReportSchema.parse(await res.json())).toMatchObject({ threadsImported: 1 })
    }
    const rows = await db()
      .select({ co2Impact: messages.co2Impact })
      .from(messages)
      .where(eq(messages.userId, user.id as string))
    expect(rows.map((r) => r.co2Impact)).toEqual(expect.arrayContaining([good, null, null]))
    const history = await t.request('/api/metrics/co2/history', { cookie })
    expect(history.status).toBe(200)
    expect(co2HistoryResponse.parse(await history.json()).days.at(-1)?.saved).toBe(2)
  })

  it('skips a thread the database refuses and stores the ones around it', async () => {
    const { user } = await t.signUp()
    const parsed = await parseImportFile(json([conversation('s1', 'one'), conversation('s3', 'three')]))
    const [first, last] = parsed.threads as [ImportedThread, ImportedThread]
    // Past the schema (as if it missed something): a NUL the database will not take.
    const refused = {
      ...first,
      source: 'chatgpt:s2',
      title: 's2',
      messages: first.messages.map((m) => ({ ...m, content: 'a\u0000b' })),
    }
    const storage = createDiskStorage(`${t.deps.env.DATA_DIR}/uploads`)
    const report = await storeImport(
      db(),
      user.id as string,
      { ...parsed, threads: [first, refused, last] },
      storage,
      t.deps.log,
    )
    expect(report).toMatchObject({
      threadsImported: 2,
      skipped: [{ title: 's2', reason: 'it holds a value Loris cannot store' }],
    })
  })
})

describe('reading the request body', () => {
  it('keeps the status of a refusal raised while the body is read, and answers 400 for a malformed form', async () => {
    const { cookie } = await t.signUp()
    const boundary = 'b0undary'
    const head = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.json"\r\n\r\n`
    // A size limit counting the body as it is read (Hono's bodyLimit refuses with this).
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(strToU8(head))
        controller.error(new HTTPException(413, { message: 'Payload Too Large' }))
      },
    })
    const res = await t.request('/api/import', {
      method: 'POST',
      cookie,
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': '100' },
      duplex: 'half',
    } as RequestInit & { cookie: string })
    expect(res.status).toBe(413)

    const cut = await t.request('/api/import', {
      method: 'POST',
      cookie,
      body: `${head}[]`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    })
    expect(cut.status).toBe(400)
  })
})
