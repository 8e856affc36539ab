// Reading a request body by hand (routes that accept JSON or a form, so cannot use `validate`):
// a body that does not parse is the client's mistake, answered 400, never a 500.
import { Busboy } from '@fastify/busboy'
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { AppError } from './app-error.ts'

// bodyLimit's own refusal (413) must pass through unchanged.
const passThrough = (err: unknown) => err instanceof AppError || err instanceof HTTPException

export async function readJsonBody(c: Context): Promise<unknown> {
  try {
    return await c.req.json()
  } catch (err) {
    if (passThrough(err)) throw err
    throw new AppError('bad_request:body', 'The request body is not valid JSON')
  }
}

/**
 * The most parts a form of ours has (a send has about ten fields and a file). The platform's
 * parser builds every part on the main thread in one go: 25 MB of one-byte fields held the
 * server for about a second, so a form with more parts than this is refused before it is parsed.
 */
export const MAX_FORM_PARTS = 50

/** Whether `body` holds more than `max` times `mark`: a linear scan that stops past the limit. */
function moreThan(body: Uint8Array, mark: Uint8Array, max: number): boolean {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  let found = 0
  for (let at = bytes.indexOf(mark); at !== -1; at = bytes.indexOf(mark, at + mark.length))
    if (++found > max) return true
  return false
}

/** A form of more parts than any of ours: multipart by its boundary, url-encoded by its `&`s. */
function tooManyParts(contentType: string, body: Uint8Array): boolean {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1]
  // The closing delimiter repeats the boundary once more than there are parts.
  if (boundary) return moreThan(body, Buffer.from(`--${boundary}`), MAX_FORM_PARTS + 1)
  return moreThan(body, Buffer.from('&'), MAX_FORM_PARTS - 1)
}

/** How fast an upload must arrive: from `graceMs` on, `minBytesPerSecond` on average; all by `deadlineMs`. */
export interface UploadPace {
  graceMs: number
  minBytesPerSecond: number
  deadlineMs: number
}

/** What a form adds to the file it carries: its boundaries and headers, and a few fields. */
export const FORM_OVERHEAD = 64 * 1024
/** The most of a body the form parser takes in one go. */
const PARSE_SLICE = 64 * 1024

/** Refusals while a body is read and the rest of it is not: the connection cannot carry another request. */
const unread = { headers: { Connection: 'close' } }

const tooSlow = (pace: UploadPace) =>
  new AppError(
    'request_timeout:upload',
    `The upload arrived too slowly: Loris needs at least ${Math.round(pace.minBytesPerSecond / 1024)} KB a second and the whole file within ${Math.round(pace.deadlineMs / 60_000)} minutes. Please try again on a faster connection or with a smaller file.`,
    unread,
  )

/**
 * Reads the request body under `pace`, handing each chunk to `onChunk` (which may throw to stop):
 * the next bytes must come by the time the bytes so far allow, so a connection that sends a byte
 * now and then is cut off within seconds of falling behind, not at the deadline.
 */
async function readPaced(c: Context, pace: UploadPace, onChunk: (chunk: Uint8Array) => void): Promise<void> {
  const body = c.req.raw.body
  if (!body) return
  const reader = body.getReader()
  const started = performance.now()
  let received = 0
  let timer: NodeJS.Timeout | undefined
  try {
    for (;;) {
      const due = Math.min(
        started + pace.graceMs + (received / pace.minBytesPerSecond) * 1000,
        started + pace.deadlineMs,
      )
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), Math.max(0, due - performance.now()))
      })
      const next = await Promise.race([reader.read(), late])
      clearTimeout(timer)
      if (next === 'late') throw tooSlow(pace)
      if (next.done) return
      received += next.value.length
      onChunk(next.value)
    }
  } catch (err) {
    void reader.cancel().catch(() => {})
    throw err
  } finally {
    clearTimeout(timer)
  }
}

/**
 * The one file named `field` of a multipart form, read under `pace` and parsed as it arrives
 * (@fastify/busboy): the file's bytes are copied once, into a buffer of the body's declared
 * length, and no step holds the main thread for the whole body. Null when the form has no such
 * file; a file over `maxFileBytes` is refused with 413 as soon as it passes it.
 */
export async function readFormFile(
  c: Context,
  field: string,
  { pace, maxFileBytes }: { pace: UploadPace; maxFileBytes: number },
): Promise<Uint8Array | null> {
  const malformed = () =>
    new AppError(
      'bad_request:body',
      'The form data could not be read (a missing boundary or a cut-off upload). Please send it again.',
      unread,
    )
  let form: ReturnType<typeof Busboy>
  try {
    form = Busboy({
      headers: { 'content-type': c.req.header('content-type') ?? '' },
      limits: {
        parts: MAX_FORM_PARTS,
        fields: MAX_FORM_PARTS,
        files: 1,
        fileSize: maxFileBytes,
        fieldSize: 64 * 1024,
      },
    })
  } catch {
    throw malformed()
  }
  const declared = Number.parseInt(c.req.header('content-length') ?? '', 10)
  let file: Uint8Array | null = null
  let size = 0
  let refusal: AppError | null = null
  // A body that ends inside a part fails that part's stream as well as the form: both are heard.
  let failed: unknown = null
  form.on('file', (name, stream) => {
    stream.on('error', (err) => {
      failed ??= err
    })
    if (name !== field || file) {
      stream.resume()
      return
    }
    file = new Uint8Array(Number.isFinite(declared) && declared > 0 ? declared : 64 * 1024)
    stream.on('data', (chunk: Buffer) => {
      let into = file as Uint8Array
      if (size + chunk.length > into.length) {
        const grown = new Uint8Array(Math.max(into.length * 2, size + chunk.length))
        grown.set(into.subarray(0, size))
        into = grown
        file = grown
      }
      into.set(chunk, size)
      size += chunk.length
    })
    stream.on('limit', () => {
      refusal ??= new AppError(
        'payload_too_large:import',
        `An import file can be at most ${maxFileBytes / 1024 / 1024} MB`,
        unread,
      )
    })
  })
  // Parts of a multipart form, fields of a url-encoded one.
  const tooMany = () => {
    refusal ??= new AppError(
      'bad_request:body',
      `This form has too many fields: Loris reads at most ${MAX_FORM_PARTS}. Please send the message or file again.`,
      unread,
    )
  }
  form.on('partsLimit', tooMany)
  form.on('fieldsLimit', tooMany)
  const finished = new Promise<void>((resolve, reject) => {
    form.on('finish', resolve)
    form.on('error', reject)
  })
  // Until the body is read, a parse error is seen at the next chunk (the promise is awaited below).
  finished.catch((err) => {
    failed = err
  })
  try {
    let received = 0
    await readPaced(c, pace, (chunk) => {
      received += chunk.length
      // A body sent without its length is counted here (app.ts leaves it to this reader).
      if (received > maxFileBytes + FORM_OVERHEAD)
        refusal ??= new AppError(
          'payload_too_large:import',
          `An import file can be at most ${maxFileBytes / 1024 / 1024} MB`,
          unread,
        )
      // A slice at a time, so a refusal (too many parts) stops the parse within one slice.
      for (let at = 0; at < chunk.length; at += PARSE_SLICE) {
        if (refusal) throw refusal
        if (failed) throw malformed()
        form.write(chunk.subarray(at, at + PARSE_SLICE))
      }
    })
    if (refusal) throw refusal
    form.end()
    await finished
    if (failed) throw malformed()
  } catch (err) {
    if (passThrough(err)) throw err
    throw malformed()
  }
  if (refusal) throw refusal
  const bytes = file as Uint8Array | null
  return bytes ? bytes.subarray(0, size) : null
}

/**
 * The fields and files of a multipart (or url-encoded) form. A missing boundary or a truncated
 * body makes the platform's parser throw a TypeError: that is a malformed request.
 */
export async function readFormBody(c: Context): Promise<Record<string, string | File>> {
  try {
    // Read whole first (the body limit applies as it is read), counted, then parsed from it.
    const body = new Uint8Array(await c.req.arrayBuffer())
    if (tooManyParts(c.req.header('content-type') ?? '', body))
      throw new AppError(
        'bad_request:body',
        `This form has too many fields: Loris reads at most ${MAX_FORM_PARTS}. Please send the message or file again.`,
      )
    return (await c.req.parseBody()) as Record<string, string | File>
  } catch (err) {
    if (passThrough(err)) throw err
    throw new AppError(
      'bad_request:body',
      'The form data could not be read (a missing boundary or a cut-off upload). Please send it again.',
    )
  }
}
