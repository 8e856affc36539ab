// Reading a request body by hand (routes that accept JSON or a form, so cannot use `validate`):
// a body that does not parse is the client's mistake, answered 400, never a 500.
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

const tooSlow = (pace: UploadPace) =>
  new AppError(
    'request_timeout:upload',
    `The upload arrived too slowly: Loris needs at least ${Math.round(pace.minBytesPerSecond / 1024)} KB a second and the whole file within ${Math.round(pace.deadlineMs / 60_000)} minutes. Please try again on a faster connection or with a smaller file.`,
    // The rest of the body is not read, so the connection cannot carry another request.
    { headers: { Connection: 'close' } },
  )

/**
 * The request body, read whole under `pace`: the next bytes must come by the time the bytes so
 * far allow, so a connection that sends a byte now and then is cut off within seconds of falling
 * behind, not at the deadline. Read into one buffer of the declared length when there is one.
 */
export async function readBodyPaced(c: Context, pace: UploadPace): Promise<Uint8Array> {
  const body = c.req.raw.body
  if (!body) return new Uint8Array(0)
  const declared = Number.parseInt(c.req.header('content-length') ?? '', 10)
  let out = new Uint8Array(Number.isFinite(declared) && declared > 0 ? declared : 64 * 1024)
  let received = 0
  const reader = body.getReader()
  const started = performance.now()
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
      if (next === 'late') {
        void reader.cancel().catch(() => {})
        throw tooSlow(pace)
      }
      if (next.done) break
      const chunk = next.value
      if (received + chunk.length > out.length) {
        const grown = new Uint8Array(Math.max(out.length * 2, received + chunk.length))
        grown.set(out.subarray(0, received))
        out = grown
      }
      out.set(chunk, received)
      received += chunk.length
    }
  } finally {
    clearTimeout(timer)
  }
  return received === out.length ? out : out.subarray(0, received)
}

/**
 * The fields and files of a multipart (or url-encoded) form. A missing boundary or a truncated
 * body makes the platform's parser throw a TypeError: that is a malformed request. With `pace`,
 * the body is read under it (readBodyPaced).
 */
export async function readFormBody(
  c: Context,
  { pace }: { pace?: UploadPace } = {},
): Promise<Record<string, string | File>> {
  try {
    // Read whole first (the body limit applies as it is read), counted, then parsed from it.
    const contentType = c.req.header('content-type') ?? ''
    const body = pace ? await readBodyPaced(c, pace) : new Uint8Array(await c.req.arrayBuffer())
    if (tooManyParts(contentType, body))
      throw new AppError(
        'bad_request:body',
        `This form has too many fields: Loris reads at most ${MAX_FORM_PARTS}. Please send the message or file again.`,
      )
    if (!pace) return (await c.req.parseBody()) as Record<string, string | File>
    // The body was read here, not by Hono: the platform's parser reads it from these bytes.
    const form = await new Response(body as Uint8Array<ArrayBuffer>, {
      headers: { 'content-type': contentType },
    }).formData()
    const fields: Record<string, string | File> = {}
    for (const [name, value] of form) fields[name] = value
    return fields
  } catch (err) {
    if (passThrough(err)) throw err
    throw new AppError(
      'bad_request:body',
      'The form data could not be read (a missing boundary or a cut-off upload). Please send it again.',
    )
  }
}
