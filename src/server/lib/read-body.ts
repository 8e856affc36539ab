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
 * The fields and files of a multipart (or url-encoded) form. A missing boundary or a truncated
 * body makes the platform's parser throw a TypeError: that is a malformed request.
 */
export async function readFormBody(c: Context): Promise<Record<string, string | File>> {
  try {
    return (await c.req.parseBody()) as Record<string, string | File>
  } catch (err) {
    if (passThrough(err)) throw err
    throw new AppError(
      'bad_request:body',
      'The form data could not be read (a missing boundary or a cut-off upload). Please send it again.',
    )
  }
}
