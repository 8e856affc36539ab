// @runs-alone: measures time on the main thread and the database, so runs after the other files, one at a time.
// What one person's import may cost everyone else (decision 046): a file of endless tiny entries,
// a value nested thousands deep, an upload trickled a byte at a time and a long thread must each
// answer with a report or a clear refusal, without holding the server, its memory or its database.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import path from 'node:path'
import { and, eq, like } from 'drizzle-orm'
import { strToU8, zipSync } from 'fflate'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IMPORT_LIMITS, importReportSchema } from '#contract/import.ts'
import { messages, threads } from '#server/db/schema/index.ts'
import { reshowThread, showRows } from '#server/features/chat/shown-branch.ts'
import type { AppEnv } from '#server/lib/context.ts'
import { toErrorResponse } from '#server/lib/on-error.ts'
import { readFormFile } from '#server/lib/read-body.ts'
import { createDiskStorage } from '#server/lib/storage.ts'
import { worstDbStall } from '../../../../tests/helpers/db-stall.ts'
import { worstStall } from '../../../../tests/helpers/stall.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { turnsOf } from '../../../../tests/helpers/thread-kit.ts'
import { jsonBytes, lorisMessage, lorisPicture, lorisThreadExport } from './loris-export-kit.ts'
import { type ImportBatch, parseImportFile, readImportFile } from './parse.ts'
import { storeImport } from './store-import.ts'

const MB = 1024 * 1024
/** The longest the main thread or the database may be held at a time (decision 046). */
const MAX_HOLD_MS = 300

let t: TestApp
beforeAll(async () => {
  // The embedded database on its own thread, as the server runs it: a stall of the main thread
  // is then this code's, and the database's is measured apart.
  t = await createTestApp({}, {}, { pgliteThread: true })
  // The route's modules and the worker load once before anything is measured.
  const { cookie } = await t.signUp()
  await importFile(cookie, jsonBytes([conversation('warm', 'hi')]), 'conversations.json')
})
afterAll(() => t?.close())

const db = () => t.deps.database.db

/** The multipart body of an import form, encoded before anything is measured (a client's work). */
async function importForm(bytes: Uint8Array, name: string) {
  const form = new FormData()
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], name))
  const encoded = new Response(form)
  const type = encoded.headers.get('content-type') as string
  return { body: new Uint8Array(await encoded.arrayBuffer()), type }
}

function postForm(cookie: string, form: { body: Uint8Array; type: string }) {
  return t.request('/api/import', {
    method: 'POST',
    cookie,
    body: form.body as Uint8Array<ArrayBuffer>,
    headers: { 'content-type': form.type },
  })
}

async function importFile(cookie: string, bytes: Uint8Array, name: string) {
  return postForm(cookie, await importForm(bytes, name))
}

/** A ChatGPT conversation of one exchange; `extra` adds fields to its user message. */
function conversation(id: string, text: string, extra: Record<string, unknown> = {}) {
  const m = (role: string, s: string, more = {}) => ({
    author: { role },
    content: { content_type: 'text', parts: [s] },
    create_time: 1_700_000_000,
    metadata: {},
    ...more,
  })
  return {
    title: id,
    conversation_id: id,
    create_time: 1_700_000_000,
    current_node: 'a',
    mapping: {
      u: { id: 'u', parent: null, children: ['a'], message: m('user', text, extra) },
      a: { id: 'a', parent: 'u', children: [], message: m('assistant', `re ${text}`) },
    },
  }
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve))
}

/**
 * Writes (to argv[1]) a Loris export zip of argv[2] threads, each naming a file of argv[3] bytes:
 * random, or (argv[4] 'repeated') one random kilobyte over and over.
 */
const EXPORT_WITH_FILES = `
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { strToU8, zipSync } from 'fflate'
const [out, count, size, content] = process.argv.slice(1)
const at = new Date().toISOString()
const entries = {}
for (let i = 0; i < Number(count); i++) {
  const path = 'files/f' + i + '.png'
  entries[path] = content === 'repeated' ? Buffer.alloc(Number(size), randomBytes(1024)) : randomBytes(Number(size))
  const attachment = { fileName: 'p.png', mimeType: 'image/png', kind: 'image', size: Number(size), path }
  const message = { content: 'q', response: 'a', status: 'complete', errorMessage: null, chatModel: 'gemini',
    provider: null, modelId: null, inputTokens: null, outputTokens: null, latencyMs: null, co2Impact: null,
    attachment, createdAt: at, completedAt: at }
  const thread = { id: crypto.randomUUID(), title: 'Files ' + i, chatModel: 'gemini', isFavorite: false,
    isDefault: false, createdAt: at, lastMessageAt: at }
  entries['threads/' + i + '.json'] = strToU8(JSON.stringify({ format: 'loris-export', version: 2, exportedAt: at, thread, messages: [message] }))
}
writeFileSync(out, zipSync(entries, { level: content === 'repeated' ? 1 : 0 }))
`

/** The highest resident memory seen while `work` runs, over what it was before. */
async function peakRssGrowth<T>(work: () => Promise<T>): Promise<{ value: T; growth: number }> {
  const before = process.memoryUsage.rss()
  let peak = before
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 5)
  try {
    const value = await work()
    peak = Math.max(peak, process.memoryUsage.rss())
    return { value, growth: peak - before }
  } finally {
    clearInterval(sampler)
  }
}

// The stall includes time the OS did not run the thread at all: two more tries on a loaded machine.
describe('a file of endless tiny entries', { retry: 2 }, () => {
  it('is refused with a 422 naming the limit, without holding the server or its memory', async () => {
    const { cookie } = await t.signUp()
    // A million entries that are not conversations, 3 MB: each skipped one counts as an entry.
    const form = await importForm(strToU8(`[${'{},'.repeat(999_999)}{}]`), 'conversations.json')
    const { value, growth } = await peakRssGrowth(() =>
      worstStall(() => worstDbStall(db(), () => postForm(cookie, form))),
    )
    const res = value.value.value
    expect(res.status).toBe(422)
    expect((await res.json()).message).toContain(
      `more than ${IMPORT_LIMITS.maxThreads.toLocaleString('en-US')} conversations`,
    )
    expect(value.stallMs).toBeLessThan(MAX_HOLD_MS)
    expect(value.value.stallMs).toBeLessThan(MAX_HOLD_MS)
    expect(growth).toBeLessThan(256 * MB)
    const [left] = await db()
      .select({ id: threads.id })
      .from(threads)
      .where(and(eq(threads.title, 'warm'), like(threads.importSource, 'importing:%')))
    expect(left).toBeUndefined()
  })

  it('lists the first skipped entries and counts them all', async () => {
    const { cookie } = await t.signUp()
    const entries = [...Array.from({ length: 150 }, () => ({})), conversation('kept', 'hello')]
    const res = await importFile(cookie, jsonBytes(entries), 'conversations.json')
    expect(res.status).toBe(200)
    const report = importReportSchema.parse(await res.json())
    expect(report.threadsImported).toBe(1)
    expect(report.skippedCount).toBe(150)
    expect(report.skipped).toHaveLength(IMPORT_LIMITS.maxListedSkipped)
    expect(report.skipped[0]).toEqual({
      title: 'Imported conversation',
      reason: 'the conversation has no id',
    })
  })

  it('hands the main thread one batch at a time, and waits while it is stored', async () => {
    const file = jsonBytes(Array.from({ length: 1000 }, (_, i) => conversation(`c${i}`, `text ${i}`)))
    const sizes: number[] = []
    let storing = false
    let overlapped = false
    await readImportFile(file, {
      file: async () => {},
      fileOverBudget: () => {},
      batch: async (batch: ImportBatch) => {
        overlapped ||= storing
        storing = true
        sizes.push(batch.threads.length + batch.skipped.length)
        // Storing takes a few turns of the event loop; no next batch may arrive meanwhile.
        await turns(5)
        storing = false
      },
    })
    expect(overlapped).toBe(false)
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(1000)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(200)
  })
})

describe('a Loris zip that carries files', { retry: 2 }, () => {
  it('hands the main thread one file at a time, and waits while it is written', async () => {
    const at = new Date().toISOString()
    const entries: Record<string, Uint8Array> = {}
    for (let i = 0; i < 5; i++) {
      entries[`files/f${i}.png`] = randomBytes(1024)
      entries[`threads/${i}.json`] = jsonBytes(
        lorisThreadExport(`F${i}`, [lorisMessage(at, { attachment: lorisPicture(`files/f${i}.png`) })], {
          at,
        }),
      )
    }
    const seen: string[] = []
    let writing = false
    let overlapped = false
    await readImportFile(zipSync(entries), {
      file: async (path) => {
        overlapped ||= writing
        writing = true
        seen.push(path)
        await turns(5)
        writing = false
      },
      fileOverBudget: () => {},
      batch: async (batch) => {
        overlapped ||= writing
        seen.push(...batch.threads.map((thread) => thread.title))
      },
    })
    expect(overlapped).toBe(false)
    // Every file first, so each thread is stored with its files.
    expect(seen).toEqual([
      ...Object.keys(entries).filter((name) => name.startsWith('files/')),
      'F0',
      'F1',
      'F2',
      'F3',
      'F4',
    ])
  })

  /**
   * Reads a Loris export of `count` threads, each naming a file of `fileBytes` (random, or one
   * random kilobyte repeated, which a zip shrinks to almost nothing), and writes its files to a
   * storage, in a process of its own (import-memory.ts): the growth of its resident memory over
   * idle at its peak and once the import ended, the upload included.
   */
  function importWithFiles(count: number, fileBytes: number, { repeated = false } = {}) {
    const dir = mkdtempSync(path.join(t.deps.env.DATA_DIR, 'memory-'))
    const zip = path.join(dir, 'export.zip')
    const content = repeated ? 'repeated' : 'random'
    execFileSync(process.execPath, [
      '--input-type=module',
      '-e',
      EXPORT_WITH_FILES,
      zip,
      `${count}`,
      `${fileBytes}`,
      content,
    ])
    const measured = execFileSync(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        path.join(import.meta.dirname, 'import-memory.ts'),
        zip,
        path.join(dir, 'uploads'),
      ],
      { encoding: 'utf8' },
    )
    rmSync(dir, { recursive: true })
    const result = JSON.parse(measured) as { files: number; peak: number; after: number }
    expect(result.files).toBe(count)
    return result
  }

  /** As large as a file in an export may be. */
  const FILE_BYTES = IMPORT_LIMITS.maxFileBytesInZip - MB
  const MOST_FILES = Math.floor(IMPORT_LIMITS.maxFilesBytes / FILE_BYTES)

  it('holds one file at a time: its peak memory does not grow with the files it carries', () => {
    const one = importWithFiles(1, FILE_BYTES, { repeated: true })
    const all = importWithFiles(MOST_FILES, FILE_BYTES, { repeated: true })
    expect(all.peak - one.peak).toBeLessThan(2 * FILE_BYTES)
  })

  it('stays within its bound with the largest upload of files, and gives the memory back', () => {
    // As much as an upload may be, all of it files a zip cannot shrink (pictures, PDFs).
    const { peak, after } = importWithFiles(MOST_FILES, FILE_BYTES)
    expect(peak).toBeLessThan(256 * MB)
    expect(after).toBeLessThan(32 * MB)
  })
})

/** JSON text of a value nested `depth` arrays deep (built as text: JSON.stringify would overflow). */
const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`

describe('values nested thousands deep', () => {
  it('skip the Loris thread that holds one, with a reason', async () => {
    const { cookie } = await t.signUp()
    for (const depth of [3_500, 10_000]) {
      const at = new Date().toISOString()
      const text = JSON.stringify(
        lorisThreadExport('Deep', [lorisMessage(at, { co2Impact: 'DEEP' })], { at }),
      )
      const res = await importFile(cookie, strToU8(text.replace('"DEEP"', deep(depth))), 'deep.json')
      expect(res.status).toBe(200)
      const report = importReportSchema.parse(await res.json())
      expect(report).toMatchObject({ threadsImported: 0, skippedCount: 1 })
      expect(report.skipped).toEqual([
        { title: 'Deep', reason: expect.stringContaining('nests more than 64 levels') },
      ])
    }
  })

  it('skip that ChatGPT conversation and import the others', async () => {
    const { cookie } = await t.signUp()
    const text = JSON.stringify([
      conversation('before', 'one'),
      conversation('nested', 'two', { weight: 'DEEP' }),
      conversation('after', 'three'),
    ])
    const res = await importFile(cookie, strToU8(text.replace('"DEEP"', deep(200_000))), 'conversations.json')
    expect(res.status).toBe(200)
    const report = importReportSchema.parse(await res.json())
    expect(report.threadsImported).toBe(2)
    expect(report.skipped).toEqual([
      { title: 'nested', reason: expect.stringContaining('nests more than 64') },
    ])
  })
})

describe('a long thread', { retry: 2 }, () => {
  it('is stored a batch at a time: neither the database nor the server is held long', async () => {
    const { cookie, user } = await t.signUp()
    const at = new Date().toISOString()
    const text = 'lorem ipsum dolor sit amet '.repeat(15)
    const file = jsonBytes(
      lorisThreadExport(
        'Long',
        Array.from({ length: 3000 }, (_, i) => lorisMessage(at, { content: `${i} ${text}`, response: text })),
        { at },
      ),
    )
    const form = await importForm(file, 'long.json')
    const { value, stallMs } = await worstStall(() => worstDbStall(db(), () => postForm(cookie, form)))
    expect(importReportSchema.parse(await value.value.json())).toMatchObject({
      threadsImported: 1,
      messagesImported: 3000,
    })
    expect(value.stallMs).toBeLessThan(MAX_HOLD_MS)
    expect(stallMs).toBeLessThan(MAX_HOLD_MS)
    // The shown branch written with the rows is the one the thread's tree gives.
    const [thread] = await db()
      .select({ id: threads.id })
      .from(threads)
      .where(and(eq(threads.userId, user.id as string), eq(threads.title, 'Long')))
    const flags = () => turnsOf(db(), thread!.id)
    const written = await flags()
    expect(written.filter((m) => m.shown)).toHaveLength(3000)
    // Sent to the main thread in slices (a long thread), the messages keep the file's order.
    const [first, last] = await Promise.all(
      [0, 2999].map(async (depth) => {
        const [row] = await db()
          .select({ content: messages.content })
          .from(messages)
          .where(and(eq(messages.threadId, thread!.id), eq(messages.depth, depth)))
        return row?.content
      }),
    )
    expect(first).toMatch(/^0 lorem/)
    expect(last).toMatch(/^2999 lorem/)
    await reshowThread(db(), thread!.id)
    expect(await flags()).toEqual(written)
  })

  it('skips a conversation with a message longer than one statement may write', async () => {
    const { cookie } = await t.signUp()
    const long = 'x'.repeat(IMPORT_LIMITS.maxMessageChars + 1)
    const file = jsonBytes([conversation('short', 'hello'), conversation('long', long)])
    const report = importReportSchema.parse(
      await (await importFile(cookie, file, 'conversations.json')).json(),
    )
    expect(report.threadsImported).toBe(1)
    expect(report.skipped).toEqual([
      {
        title: 'long',
        reason: `a message longer than ${IMPORT_LIMITS.maxMessageChars.toLocaleString('en-US')} characters (messages.0.content)`,
      },
    ])
  })

  it('refused part-way leaves nothing of it, and the threads around it are stored', async () => {
    const { user } = await t.signUp()
    const at = new Date().toISOString()
    const parsed = await parseImportFile(
      jsonBytes(
        lorisThreadExport(
          'Refused',
          Array.from({ length: 300 }, () => lorisMessage(at)),
          { at },
        ),
      ),
    )
    const [thread] = parsed.threads
    // Past the schema (as if it missed something): a NUL the database will not take, in a later batch.
    const refused = {
      ...thread!,
      messages: thread!.messages.map((m, i) => (i === 250 ? { ...m, content: 'a\u0000b' } : m)),
    }
    const storage = createDiskStorage(`${t.deps.env.DATA_DIR}/uploads`)
    const report = await storeImport(
      db(),
      user.id as string,
      { ...parsed, threads: [refused] },
      storage,
      t.deps.log,
    )
    expect(report).toMatchObject({ threadsImported: 0, skipped: [{ title: 'Refused' }] })
    const left = await db()
      .select({ id: messages.id })
      .from(messages)
      .where(eq(messages.userId, user.id as string))
    expect(left).toEqual([])
    const own = await db()
      .select({ title: threads.title })
      .from(threads)
      .where(eq(threads.userId, user.id as string))
    expect(own.map((r) => r.title)).toEqual(['Default'])
  })

  it('left unfinished by a stopped server is removed by the next import, which stores it whole', async () => {
    const { cookie, user } = await t.signUp()
    const userId = user.id as string
    const at = new Date().toISOString()
    const exported = lorisThreadExport('Halfway', [lorisMessage(at), lorisMessage(at)], { at })
    // What a server stopped between two batches leaves: the thread marked unfinished, some rows.
    const [half] = await db()
      .insert(threads)
      .values({ userId, title: 'Halfway', importSource: `importing:0:loris:${exported.thread.id}` })
      .returning({ id: threads.id })
    const [row] = await db()
      .insert(messages)
      .values({ userId, threadId: half!.id, content: 'q', chatModel: 'gemini', origin: 'import' })
      .returning({ id: messages.id })
    await showRows(db(), half!.id, [{ id: row!.id, depth: 0 }])
    const res = await importFile(cookie, jsonBytes(exported), 'halfway.json')
    expect(importReportSchema.parse(await res.json())).toMatchObject({
      threadsImported: 1,
      messagesImported: 2,
    })
    const own = await db()
      .select({ id: threads.id, source: threads.importSource })
      .from(threads)
      .where(and(eq(threads.userId, userId), eq(threads.title, 'Halfway')))
    expect(own).toEqual([{ id: expect.not.stringMatching(half!.id), source: `loris:${exported.thread.id}` }])
  })
})

describe('uploads that trickle in', () => {
  const BOUNDARY = 'loris-trickle'
  const head = strToU8(
    `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="conversations.json"\r\ncontent-type: application/json\r\n\r\n[`,
  )

  /** An upload that sends its first bytes and then nothing until `stop()`. */
  function trickle(cookie: string) {
    let stop = () => {}
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head)
        stop = () => controller.error(new Error('the client went away'))
      },
    })
    const answer = t.request('/api/import', {
      method: 'POST',
      cookie,
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      duplex: 'half',
    } as RequestInit & { cookie: string })
    return { answer, stop: () => stop() }
  }

  it('keep no one else waiting, and hold one import per person', async () => {
    const people = await Promise.all([t.signUp(), t.signUp(), t.signUp()])
    const slow = people.map((p) => trickle(p.cookie))
    try {
      const { cookie } = await t.signUp()
      const res = await importFile(cookie, jsonBytes([conversation('mine', 'hello')]), 'conversations.json')
      expect(res.status).toBe(200)
      expect(importReportSchema.parse(await res.json())).toMatchObject({ threadsImported: 1 })
      // The first of the three tries a second import while the first is still arriving.
      const again = await importFile(
        people[0]!.cookie,
        jsonBytes([conversation('x', 'y')]),
        'conversations.json',
      )
      expect(again.status).toBe(429)
      expect((await again.json()).message).toContain('Your other import is still running')
    } finally {
      for (const s of slow) s.stop()
    }
    for (const s of slow) expect((await s.answer).status).toBeGreaterThanOrEqual(400)
  })

  it('is cut off with a 408 once it falls behind the pace, well before the deadline', async () => {
    const pace = { graceMs: 300, minBytesPerSecond: 1000, deadlineMs: 60_000 }
    const app = new Hono<AppEnv>()
      .post('/', async (c) => {
        const file = await readFormFile(c, 'file', { pace, maxFileBytes: 1024 })
        return c.json({ bytes: file?.length ?? null }, 200)
      })
      .onError(toErrorResponse)
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        // One byte a tick, far below the pace.
        await new Promise((resolve) => setTimeout(resolve, 50))
        controller.enqueue(sent++ === 0 ? head : strToU8(' '))
      },
    })
    const started = performance.now()
    const res = await app.request('/', {
      method: 'POST',
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      duplex: 'half',
    } as RequestInit)
    expect(res.status).toBe(408)
    expect((await res.json()).message).toContain('The upload arrived too slowly')
    expect(res.headers.get('connection')).toBe('close')
    expect(performance.now() - started).toBeLessThan(5000)

    const whole = `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="a.json"\r\n\r\n[]\r\n--${BOUNDARY}--\r\n`
    const fine = await app.request('/', {
      method: 'POST',
      body: whole,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    })
    expect(await fine.json()).toEqual({ bytes: 2 })
  })
})
