// The size limit on API request bodies: a body over its limit is refused (413) before it is read.
// A declared Content-Length is checked from the header; only a body without one (chunked) goes
// through Hono's bodyLimit, which counts it as it is read. Hono's middleware alone would do the
// same checks, but its first step reads `c.req.raw.body`, which turns @hono/node-server's
// lightweight request into a full WHATWG Request for every API call, GETs included, and makes a
// JSON body go through a ReadableStream instead of being read straight from the socket: about
// 0.2 ms of every request.
import type { Context, Next } from 'hono'
import { bodyLimit } from 'hono/body-limit'

export interface BodyLimit {
  maxSize: number
  /** Answers (or throws) the refusal. */
  onError: (c: Context) => Response | Promise<Response>
}

/** The body's length as the request declares it; undefined when only reading it can tell. */
function declaredLength(c: Context): number | undefined {
  // No body by definition (the platform's Request has none for them either).
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return 0
  const length = c.req.header('content-length')
  if (length === undefined || c.req.header('transfer-encoding') !== undefined) return undefined
  return Number.parseInt(length, 10)
}

export function limitBody(c: Context, next: Next, limit: BodyLimit) {
  const declared = declaredLength(c)
  if (declared === undefined) return bodyLimit(limit)(c, next)
  return declared > limit.maxSize ? limit.onError(c) : next()
}
