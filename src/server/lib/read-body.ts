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
