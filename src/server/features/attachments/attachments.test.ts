import { readdir, readFile, utimes } from 'node:fs/promises'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { ATTACHMENT_NOTICE_HEADER, decodeNoticeHeader } from '#contract/attachments.ts'
import { messagePageSchema } from '#contract/messages.ts'
import { uploads } from '#server/db/schema/index.ts'
import { createDiskStorage } from '#server/lib/storage.ts'
import { setUpAiTestApp } from '../../../../tests/helpers/ai-test-app.ts'
import { readEvents, replyText } from '../../../../tests/helpers/chat.ts'
import { sessionCookie } from '../../../../tests/helpers/test-app.ts'
import { insertUpload } from './queries.ts'

const app = setUpAiTestApp(() => ({ TRANSCRIBE_ENGINE: 'pocketsphinx' }))

const db = () => app.t.deps.database.db

// Many accounts for one file: each from its own address, under the per-address sign-up limit.
let users = 0
async function signUp() {
  users += 1
  const res = await app.t.request('/api/register', {
    method: 'POST',
    headers: { 'x-forwarded-for': `10.0.${Math.floor(users / 250)}.${users % 250}` },
    json: { email: `files-${users}-${Date.now()}@example.com`, password: 'correct horse battery' },
  })
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status}`)
  return { cookie: sessionCookie(res), user: (await res.json()) as { id: string } }
}
const fixture = async (name: string) => new Uint8Array(await readFile(join('tests/fixtures', name)))

const uploadsDir = () => join(app.t.deps.env.DATA_DIR, 'uploads')

async function storedObjects(): Promise<string[]> {
  const root = uploadsDir()
  const dirs = await readdir(root).catch(() => [] as string[])
  const files = await Promise.all(dirs.map((d) => readdir(join(root, d))))
  return files.flat()
}

/**
 * As if every stored object had been written hours ago: a deletion spares objects written or
 * reused within the last hour (decision 042), which the hourly sweep takes later.
 */
async function ageStoredObjects() {
  const past = new Date(Date.now() - 3 * 60 * 60_000)
  for (const key of await storedObjects()) await utimes(join(uploadsDir(), key.slice(0, 2), key), past, past)
}

function form(field: string, name: string, bytes: Uint8Array, fields: Record<string, string> = {}) {
  const body = new FormData()
  for (const [k, v] of Object.entries({ isEcoMode: 'false', useOpenAI: 'false', ...fields })) body.set(k, v)
  body.set(field, new File([bytes as Uint8Array<ArrayBuffer>], name))
  return body
}

const post = (cookie: string, body: FormData) =>
  app.t.request('/api/messages', { method: 'POST', cookie, body })

/** Sends a file and reads the whole stream; the stored message comes from GET /api/messages. */
async function sendFile(cookie: string, field: string, name: string, fields: Record<string, string> = {}) {
  const res = await post(cookie, form(field, name, await fixture(name), fields))
  expect(res.status).toBe(200)
  const events = await readEvents(res)
  expect(events.at(-1)).toMatchObject({ done: true })
  const threadId = events[0]?.threadId as string
  const list = messagePageSchema.parse(
    await (await app.t.request(`/api/messages?threadId=${threadId}`, { cookie })).json(),
  ).items
  const message = list.find((m) => m.id === events[0]?.id)
  if (!message) throw new Error('the message was not stored')
  return { res, reply: replyText(events), message, threadId }
}

const errorOf = async (res: Response) => ({ status: res.status, message: (await res.json()).message })

describe('sending a file with a message', () => {
  it.each([
    ['image.png', 'image/png', 821],
    ['photo.jpg', 'image/jpeg', 8381],
    ['image.webp', 'image/webp', 466],
  ])('%s reaches the model as an image and is shown from /api/uploads', async (name, type, size) => {
    const { cookie } = await signUp()
    const { reply, message } = await sendFile(cookie, 'image', name, { content: 'What is this?' })
    expect(reply).toContain('Echo: What is this?')
    expect(reply).toContain(`[image ${type} ${size} bytes]`)
    expect(message).toMatchObject({ mediaType: 'image', content: 'What is this?' })
    expect(message.mediaUrl).toMatch(/^\/api\/uploads\/[0-9a-f-]{36}$/)

    const file = await app.t.request(message.mediaUrl as string, { cookie })
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe(type)
    expect(file.headers.get('x-content-type-options')).toBe('nosniff')
    expect(file.headers.get('content-disposition')).toMatch(/^inline; filename="/)
    expect(file.headers.get('content-security-policy')).toMatch(/^sandbox;/)
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(await fixture(name))
  })

  it('a GIF reaches the model as its first frame in PNG (Gemini takes no GIF); the GIF is kept', async () => {
    const { cookie } = await signUp()
    const { reply, message } = await sendFile(cookie, 'image', 'animation.gif')
    expect(reply).toMatch(/\[image image\/png \d+ bytes\]/)
    const file = await app.t.request(message.mediaUrl as string, { cookie })
    expect(file.headers.get('content-type')).toBe('image/gif')
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(await fixture('animation.gif'))
  })

  it.each([
    ['document.pdf', 'The loris sleeps during the day and forages at night.'],
    ['document.docx', 'Reforestation partners plant native trees.'],
    ['sheet.xlsx', 'Sheet "Trees":\nMonth,Trees\nJanuary,120'],
    ['sheet.xls', 'February,95'],
    ['data.csv', 'Month,Trees\nJanuary,120'],
    ['notes.txt', 'Loris notes: compost on Tuesdays.'],
  ])('%s reaches the model as its text, with its name', async (name, text) => {
    const { cookie } = await signUp()
    const { reply, message } = await sendFile(cookie, 'file', name)
    expect(reply).toContain(`Attached ${name}:\n`)
    expect(reply).toContain(text)
    expect(message).toMatchObject({ mediaType: 'document', content: '', mediaName: name })
    const file = await app.t.request(message.mediaUrl as string, { cookie })
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="${name}"; filename*=UTF-8''${name}`,
    )
  })

  it('the exchange names the file and the type read from its bytes, and keeps them on an edit', async () => {
    const { cookie } = await signUp()
    const { message, threadId } = await sendFile(cookie, 'file', 'document.pdf', { content: 'Read this' })
    expect(message).toMatchObject({ mediaName: 'document.pdf', mediaMime: 'application/pdf' })
    // An edit without a new file is a new version of the turn with the same file.
    const edit = new FormData()
    for (const [k, v] of Object.entries({
      isEcoMode: 'false',
      useOpenAI: 'false',
      threadId,
      content: 'Read it',
    }))
      edit.set(k, v)
    edit.set('editOf', message.id)
    await readEvents(await post(cookie, edit))
    const list = messagePageSchema.parse(
      await (await app.t.request(`/api/messages?threadId=${threadId}`, { cookie })).json(),
    ).items
    expect(list.at(-1)).toMatchObject({
      content: 'Read it',
      mediaName: 'document.pdf',
      mediaMime: 'application/pdf',
    })
  })

  it('a file sent alone to a new thread names the thread', async () => {
    const { cookie } = await signUp()
    const res = await post(cookie, form('file', 'notes.txt', await fixture('notes.txt')))
    const events = await readEvents(res)
    const threads = await (await app.t.request('/api/threads', { cookie })).json()
    const created = threads.find((th: { id: string }) => th.id === events[0]?.actualThreadId)
    expect(created?.title).toBe('notes.txt')
  })

  it('serves an SVG as a download, never inline, sandboxed and not sniffed', async () => {
    const { cookie } = await signUp()
    const { reply, message } = await sendFile(cookie, 'image', 'script.svg')
    // Models take no SVG images: they read its source.
    expect(reply).toContain('<svg xmlns="http://www.w3.org/2000/svg"')
    expect(message.mediaType).toBe('image')
    const file = await app.t.request(message.mediaUrl as string, { cookie })
    expect(file.headers.get('content-type')).toBe('image/svg+xml')
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="script.svg"/)
    expect(file.headers.get('x-content-type-options')).toBe('nosniff')
    expect(file.headers.get('content-security-policy')).toContain('sandbox')
  })

  it('cuts a long document, tells the model, and says so in a header', async () => {
    const { cookie } = await signUp()
    // The stand-in echoes all 60,000 characters back: stream them without pauses.
    app.ai.setChunkDelayMs(0)
    const long = `${'The loris forages at night. '.repeat(2_600)}THE END`
    const res = await post(cookie, form('file', 'long.txt', new TextEncoder().encode(long)))
    expect(decodeNoticeHeader(res.headers.get(ATTACHMENT_NOTICE_HEADER))).toBe(
      'long.txt is long: only the first 60,000 of its 72,807 characters were read.',
    )
    const reply = replyText(await readEvents(res))
    expect(reply).toContain('[This document was truncated: only the first 60,000 of its 72,807 characters')
    expect(reply).not.toContain('THE END')
  }, 60_000)

  it('names a long document in any script in the notice header, percent-encoded', async () => {
    const { cookie } = await signUp()
    app.ai.setChunkDelayMs(0)
    const long = `${'La nuit, le loris cherche sa nourriture. '.repeat(1_800)}FIN`
    const name = 'notes-été-日本語-🦥.txt'
    const res = await post(cookie, form('file', name, new TextEncoder().encode(long)))
    expect(res.status).toBe(200)
    const raw = res.headers.get(ATTACHMENT_NOTICE_HEADER) ?? ''
    // Only visible ASCII on the wire.
    expect(raw).toMatch(/^[\x21-\x7e]+$/)
    expect(decodeNoticeHeader(raw)).toMatch(new RegExp(`^${name} is long: only the first 60,000`))
    expect(replyText(await readEvents(res))).toContain('[This document was truncated')
  }, 60_000)

  it('transcribes a recording: its words become the message when nothing was typed', async () => {
    const { cookie, user } = await signUp()
    const { reply, message } = await sendFile(cookie, 'audio', 'goforward.webm')
    expect(message).toMatchObject({ content: 'go forward ten meters', mediaType: null, mediaUrl: null })
    expect(reply).toContain('Echo: go forward ten meters')
    // A recording is not kept: its words are the message.
    const rows = await db().select().from(uploads).where(eq(uploads.userId, user.id))
    expect(rows).toHaveLength(0)
  }, 60_000)

  it('sends the transcript along with typed text', async () => {
    const { cookie } = await signUp()
    const { reply, message } = await sendFile(cookie, 'audio', 'goforward.webm', { content: 'Translate:' })
    expect(message.content).toBe('Translate:')
    expect(reply).toContain('Attached voice message goforward.webm (transcript):\ngo forward ten meters')
  }, 60_000)
})

describe('refusals store nothing', () => {
  beforeEach(async () => {
    await db().delete(uploads)
  })

  async function refused(field: string, name: string, bytes: Uint8Array) {
    const { cookie } = await signUp()
    const before = await storedObjects()
    const res = await post(cookie, form(field, name, bytes, { content: 'hi' }))
    expect(await db().select().from(uploads)).toHaveLength(0)
    expect(await storedObjects()).toEqual(before)
    return errorOf(res)
  }

  const padded = (head: Uint8Array, size: number) => {
    const bytes = new Uint8Array(size)
    bytes.set(head)
    return bytes
  }

  it('an executable renamed to .png is 415', async () => {
    const err = await refused('image', 'program.png', await fixture('program.png'))
    expect(err.status).toBe(415)
    expect(err.message).toMatch(/^This type of file is not supported\. Attach images \(JPEG, PNG/)
  })

  it('an image over 10 MB is 413 naming the limit', async () => {
    const png = padded(await fixture('image.png'), 10 * 1024 * 1024 + 1)
    expect(await refused('image', 'big.png', png)).toEqual({
      status: 413,
      message: 'Images can be at most 10 MB.',
    })
  })

  it('a document over 20 MB is 413 naming the limit', async () => {
    const text = new TextEncoder().encode('a'.repeat(20 * 1024 * 1024 + 1))
    expect(await refused('file', 'big.txt', text)).toEqual({
      status: 413,
      message: 'Documents can be at most 20 MB.',
    })
  })

  it('audio over 25 MB is 413 naming the limit', async () => {
    const webm = padded(await fixture('goforward.webm'), 25 * 1024 * 1024 + 1)
    expect(await refused('audio', 'big.webm', webm)).toEqual({
      status: 413,
      message: 'Audio files can be at most 25 MB.',
    })
  })

  it('a scanned PDF with no text is 422', async () => {
    const err = await refused('file', 'scanned.pdf', await fixture('scanned.pdf'))
    expect(err.status).toBe(422)
    expect(err.message).toMatch(/^No text could be read from this PDF/)
  })

  it('a form that asks to edit and regenerate at once is 400 and stores its file nowhere', async () => {
    const { cookie } = await signUp()
    const before = await storedObjects()
    const id = crypto.randomUUID()
    const res = await post(
      cookie,
      form('image', 'image.png', await fixture('image.png'), { editOf: id, regenerateOf: id }),
    )
    expect(await errorOf(res)).toEqual({ status: 400, message: 'Edit or regenerate, not both at once' })
    expect(await db().select().from(uploads)).toHaveLength(0)
    expect(await storedObjects()).toEqual(before)
  })

  it('a send refused after the file was taken in (unknown thread) drops the file again', async () => {
    const body = form('image', 'image.png', await fixture('image.png'), {
      threadId: '00000000-0000-4000-8000-000000000000',
    })
    const { cookie } = await signUp()
    const res = await post(cookie, body)
    expect(res.status).toBe(404)
    expect(await db().select().from(uploads)).toHaveLength(0)
  })
})

describe('who may see a file, and when it goes', () => {
  it('another user gets 404, as does a visitor (401)', async () => {
    const owner = await signUp()
    const { message } = await sendFile(owner.cookie, 'image', 'image.png')
    const other = await signUp()
    const res = await app.t.request(message.mediaUrl as string, { cookie: other.cookie })
    expect(await errorOf(res)).toEqual({ status: 404, message: 'This file does not exist' })
    expect((await app.t.request(message.mediaUrl as string)).status).toBe(401)
  })

  it('deleting the thread removes its files; a file another message still uses stays', async () => {
    const { cookie, user } = await signUp()
    // The same bytes in two threads share one stored object.
    const kept = await sendFile(cookie, 'file', 'notes.txt', { content: 'keep me' })
    const gone = await sendFile(cookie, 'file', 'notes.txt')
    const only = await sendFile(cookie, 'image', 'photo.jpg', { threadId: gone.threadId })
    await ageStoredObjects()
    const objects = await storedObjects()
    const del = await app.t.request(`/api/threads/${gone.threadId}`, { method: 'DELETE', cookie })
    expect(del.status).toBe(200)

    expect((await app.t.request(gone.message.mediaUrl as string, { cookie })).status).toBe(404)
    expect((await app.t.request(only.message.mediaUrl as string, { cookie })).status).toBe(404)
    expect((await app.t.request(kept.message.mediaUrl as string, { cookie })).status).toBe(200)
    const rows = await db().select().from(uploads).where(eq(uploads.userId, user.id))
    expect(rows).toHaveLength(1)
    const left = await storedObjects()
    expect(left).toHaveLength(objects.length - 1)
    expect(left).toContain(rows[0]?.storageKey)
  })

  it('a thread made from a message keeps its file when the first thread goes', async () => {
    const { cookie } = await signUp()
    const first = await sendFile(cookie, 'image', 'photo.jpg', { content: 'keep this picture' })
    const copy = await app.t.request('/api/threads/create-from-message', {
      method: 'POST',
      cookie,
      json: { messageId: first.message.id },
    })
    expect(copy.status).toBe(201)
    // The copy shows the same file, named and typed as it was sent.
    const { id: copyThread } = await copy.json()
    const copied = messagePageSchema.parse(
      await (await app.t.request(`/api/messages?threadId=${copyThread}`, { cookie })).json(),
    ).items
    expect(copied[0]).toMatchObject({ mediaName: 'photo.jpg', mediaMime: 'image/jpeg' })
    await app.t.request(`/api/threads/${first.threadId}`, { method: 'DELETE', cookie })
    const file = await app.t.request(first.message.mediaUrl as string, { cookie })
    expect(file.status).toBe(200)
  })

  it('clearing the history removes every file of the user', async () => {
    const { cookie, user } = await signUp()
    await sendFile(cookie, 'file', 'data.csv')
    const { message } = await sendFile(cookie, 'image', 'image.webp')
    const res = await app.t.request('/api/messages', { method: 'DELETE', cookie })
    expect(res.status).toBe(200)
    expect((await app.t.request(message.mediaUrl as string, { cookie })).status).toBe(404)
    const rows = await db().select().from(uploads).where(eq(uploads.userId, user.id))
    expect(rows).toHaveLength(0)
  }, 60_000)

  it('deleting the account removes its files', async () => {
    const { cookie } = await signUp()
    const bytes = new TextEncoder().encode(`only this account has this text ${Date.now()}`)
    await readEvents(await post(cookie, form('file', 'mine.txt', bytes)))
    const [row] = await db().select().from(uploads).where(eq(uploads.fileName, 'mine.txt'))
    const key = row?.storageKey
    expect(key).toMatch(/^[0-9a-f]{64}$/)
    expect(await storedObjects()).toContain(key)
    await ageStoredObjects()
    const del = await app.t.request('/api/delete-account', { method: 'POST', cookie, json: {} })
    expect(del.status).toBe(200)
    expect(await storedObjects()).not.toContain(key)
  })

  it('a file sent within the hour stays when its thread goes, for the hourly sweep', async () => {
    const { cookie } = await signUp()
    const bytes = new TextEncoder().encode(`sent just now ${Date.now()}`)
    await readEvents(await post(cookie, form('file', 'now.txt', bytes)))
    const [row] = await db().select().from(uploads).where(eq(uploads.fileName, 'now.txt'))
    const res = await app.t.request('/api/messages', { method: 'DELETE', cookie })
    expect(res.status).toBe(200)
    expect(await db().select().from(uploads).where(eq(uploads.fileName, 'now.txt'))).toHaveLength(0)
    expect(await storedObjects()).toContain(row?.storageKey)
  })

  // Decision 042: storage is shared by content and a row is inserted after its put. A deletion
  // (here, another person's) that finds no row for the bytes between the two must not take them.
  it('bytes stored again for someone else while a deletion removes them stay, and are served', async () => {
    const owner = await signUp()
    const bytes = new TextEncoder().encode(`stored by two people ${Date.now()}`)
    const first = await readEvents(await post(owner.cookie, form('file', 'shared.txt', bytes)))
    await ageStoredObjects()
    // The second person's send, step by step: the put (the object exists: nothing written) ...
    const storage = createDiskStorage(uploadsDir())
    const key = await storage.put(bytes)
    // ... the owner deletes the thread meanwhile, and no uploads row names the bytes ...
    const threadId = first[0]?.threadId as string
    const del = await app.t.request(`/api/threads/${threadId}`, { method: 'DELETE', cookie: owner.cookie })
    expect(del.status).toBe(200)
    expect(await db().select().from(uploads).where(eq(uploads.storageKey, key))).toHaveLength(0)
    // ... then the second person's row is inserted.
    const other = await signUp()
    const row = await insertUpload(db(), {
      userId: other.user.id,
      storageKey: key,
      mimeType: 'text/plain',
      kind: 'document',
      fileName: 'shared.txt',
      size: bytes.length,
    })
    expect(await storedObjects()).toContain(key)
    const file = await app.t.request(`/api/uploads/${row.id}`, { cookie: other.cookie })
    expect(file.status).toBe(200)
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes)
  })
})

describe('POST /api/transcribe', () => {
  const transcribe = (cookie: string | undefined, body: FormData) =>
    app.t.request('/api/transcribe', { method: 'POST', cookie, body })

  it('returns the words of a recording (offline engine)', async () => {
    const { cookie } = await signUp()
    const body = new FormData()
    body.set('audio', new File([await fixture('goforward.webm')], 'recording-1.webm', { type: 'audio/webm' }))
    const res = await transcribe(cookie, body)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ transcription: 'go forward ten meters' })
  })

  it('names what is wrong: no file, silence, too long', async () => {
    const { cookie } = await signUp()
    expect(await errorOf(await transcribe(cookie, new FormData()))).toEqual({
      status: 400,
      message: 'Attach the recording in the form field `audio`',
    })
    const silence = new FormData()
    silence.set('audio', new File([await fixture('silence.webm')], 'recording-2.webm'))
    expect(await errorOf(await transcribe(cookie, silence))).toEqual({
      status: 422,
      message: 'No speech was heard in the recording.',
    })
    const long = new FormData()
    long.set('audio', new File([await fixture('long.webm')], 'recording-3.webm'))
    expect((await transcribe(cookie, long)).status).toBe(413)
  })

  it('is rate limited per user', async () => {
    const { cookie } = await signUp()
    // An empty recording is refused at once, after it counted.
    const empty = () => {
      const body = new FormData()
      body.set('audio', new File([], 'recording-0.webm'))
      return transcribe(cookie, body)
    }
    for (let i = 0; i < 30; i++) expect((await empty()).status).toBe(422)
    const limited = await empty()
    expect(limited.status).toBe(429)
    expect((await limited.json()).message).toBe(
      'Too many recordings in a short time. Please wait a few minutes and try again.',
    )
    // Another user is not affected.
    expect((await transcribe((await signUp()).cookie, new FormData())).status).toBe(400)
  })

  it('needs a session', async () => {
    const body = new FormData()
    body.set('audio', new File([await fixture('goforward.webm')], 'recording-1.webm'))
    expect((await transcribe(undefined, body)).status).toBe(401)
  })

  it('GET /api/config says voice input is available', async () => {
    const config = await (await app.t.request('/api/config')).json()
    expect(config.transcription).toEqual({ available: true, reason: null })
  })
})
