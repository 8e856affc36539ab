// Response compression. Hono's compress() pipes every body through a CompressionStream: for an
// answer already whole in memory (the API's JSON) that is a stream, a queue and a zlib job on the
// thread pool per answer, and the Node adapter then reads the body chunk by chunk: about 2 ms of
// CPU for a page of threads (more than the page itself). Such an answer is gzipped here
// in one call instead; everything else (files, downloads, deflate-only clients) still goes through
// compress(), which sees the Content-Encoding set here and leaves the answer alone.
//
// The JSON is gzipped from its text, kept when c.json made it, not read back from the Response:
// reading it back turns the Node adapter's light Response into a full one (and its body into a
// stream), and so does putting the gzipped one in its place through Hono's c.res setter, which
// copies the old answer's body: together a fifth of a thread page's CPU (decision 045).
import { promisify } from 'node:util'
import { constants, gzip, gzipSync } from 'node:zlib'
import type { Context, MiddlewareHandler } from 'hono'
import { compress } from 'hono/compress'
import { parseAccept } from 'hono/utils/accept'

/** Smaller answers are sent as they are (as compress() does). */
const THRESHOLD_BYTES = 1024
/** Larger in-memory answers are gzipped on the thread pool rather than on the event loop. */
const SYNC_LIMIT_BYTES = 64 * 1024
/**
 * Answers gzipped on the event loop take zlib's fastest level: a page of 50 threads (13 KB) in
 * half the time of the default level, for 10 percent more bytes (2.1 KB against 1.96).
 */
const SYNC_OPTIONS = { level: constants.Z_BEST_SPEED }
const gzipAsync = promisify(gzip)

function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false
  const accepts = parseAccept(header)
  const chosen = accepts.find((a) => a.type.toLowerCase() === 'gzip') ?? accepts.find((a) => a.type === '*')
  return (chosen?.q ?? 0) > 0
}

/** The text of each JSON answer c.json or jsonText made, by answer; gone with the answer. */
const jsonTexts = new WeakMap<Response, string>()

/** Counted by tests: JSON answers gzipped from their text, and those read back from the Response. */
export const compressionStats = { fromText: 0, readBack: 0 }

/** c.json as Hono writes it (context.js: the text, then c.body), keeping the text beside the answer. */
function keepJsonText(c: Context) {
  const json = (object: unknown, arg?: unknown, headers?: Record<string, string>) =>
    jsonText(c, JSON.stringify(object), arg, headers)
  c.json = json as unknown as Context['json']
}

/** An answer of JSON already written as text (a list page PostgreSQL wrote), gzipped as c.json's. */
export function jsonText(
  c: Context,
  text: string,
  arg?: unknown,
  headers?: Record<string, string>,
): Response {
  const body = c.body as (text: string, arg?: unknown, headers?: Record<string, string>) => Response
  const res = body(text, arg, { 'Content-Type': 'application/json', ...headers })
  jsonTexts.set(res, text)
  return res
}

/** The app's JSON, built in memory: not a download, not already encoded, not marked no-transform. */
function isWholeJson(c: Context, text: string | undefined): boolean {
  const res = c.res
  if (res.status === 206 || (text === undefined && !res.body)) return false
  const h = res.headers
  if (h.has('content-encoding') || h.has('content-disposition') || h.has('transfer-encoding')) return false
  if (!/^application\/json\b/i.test(h.get('content-type') ?? '')) return false
  return !/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(h.get('cache-control') ?? '')
}

/**
 * Puts `res` in place of the answer. Hono's setter would copy the old answer into a new Response
 * (reading its body); `res` already carries every header of the old one.
 */
function replaceAnswer(c: Context, res: Response) {
  c.res = undefined as unknown as Response
  c.res = res
}

async function gzipWholeJson(c: Context) {
  const original = c.res
  const text = jsonTexts.get(original)
  if (!isWholeJson(c, text)) return
  if (text === undefined) compressionStats.readBack++
  else compressionStats.fromText++
  const body = text === undefined ? Buffer.from(await original.arrayBuffer()) : Buffer.from(text)
  const vary = original.headers.get('vary')
  if (vary !== '*' && !/(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary ?? ''))
    original.headers.set('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding')
  // Not statusText: reading it turns the adapter's light Response into a full one.
  const init = { status: original.status, headers: original.headers }
  if (body.length < THRESHOLD_BYTES) {
    // Sent as it is; its length tells compress() too.
    original.headers.set('content-length', String(body.length))
    if (text === undefined) replaceAnswer(c, new Response(body, init))
    return
  }
  const zipped = body.length <= SYNC_LIMIT_BYTES ? gzipSync(body, SYNC_OPTIONS) : await gzipAsync(body)
  original.headers.delete('content-length')
  original.headers.set('content-encoding', 'gzip')
  replaceAnswer(c, new Response(zipped, init))
}

export function compression(): MiddlewareHandler {
  const streamed = compress()
  return (c, next) =>
    streamed(c, async () => {
      const gzip = c.req.method !== 'HEAD' && acceptsGzip(c.req.header('accept-encoding'))
      if (gzip) keepJsonText(c)
      await next()
      if (gzip) await gzipWholeJson(c)
    })
}
