// Response compression. Hono's compress() pipes every body through a CompressionStream: for an
// answer already whole in memory (the API's JSON) that is a stream, a queue and a zlib job on the
// thread pool per answer, and the Node adapter then reads the body chunk by chunk: about 2 ms of
// CPU for a page of threads (issue 15: more than the page itself). Such an answer is gzipped here
// in one call instead; everything else (files, downloads, deflate-only clients) still goes through
// compress(), which sees the Content-Encoding set here and leaves the answer alone.
import { promisify } from 'node:util'
import { gzip, gzipSync } from 'node:zlib'
import type { Context, MiddlewareHandler } from 'hono'
import { compress } from 'hono/compress'
import { parseAccept } from 'hono/utils/accept'

/** Smaller answers are sent as they are (as compress() does). */
const THRESHOLD_BYTES = 1024
/** Larger in-memory answers are gzipped on the thread pool rather than on the event loop. */
const SYNC_LIMIT_BYTES = 64 * 1024
const gzipAsync = promisify(gzip)

function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false
  const accepts = parseAccept(header)
  const chosen = accepts.find((a) => a.type.toLowerCase() === 'gzip') ?? accepts.find((a) => a.type === '*')
  return (chosen?.q ?? 0) > 0
}

/** The app's JSON, built in memory: not a download, not already encoded, not marked no-transform. */
function isWholeJson(c: Context): boolean {
  const res = c.res
  if (c.req.method === 'HEAD' || !res.body || res.status === 206) return false
  const h = res.headers
  if (h.has('content-encoding') || h.has('content-disposition') || h.has('transfer-encoding')) return false
  if (!/^application\/json\b/i.test(h.get('content-type') ?? '')) return false
  return !/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(h.get('cache-control') ?? '')
}

async function gzipWholeJson(c: Context) {
  if (!isWholeJson(c) || !acceptsGzip(c.req.header('accept-encoding'))) return
  const original = c.res
  const body = Buffer.from(await original.arrayBuffer())
  const vary = original.headers.get('vary')
  if (vary !== '*' && !/(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary ?? ''))
    original.headers.set('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding')
  if (body.length < THRESHOLD_BYTES) {
    // Sent as it is; its length tells compress() too.
    c.res = new Response(body, original)
    c.res.headers.set('content-length', String(body.length))
    return
  }
  const zipped = body.length <= SYNC_LIMIT_BYTES ? gzipSync(body) : await gzipAsync(body)
  c.res = new Response(zipped, original)
  c.res.headers.delete('content-length')
  c.res.headers.set('content-encoding', 'gzip')
}

export function compression(): MiddlewareHandler {
  const streamed = compress()
  return (c, next) =>
    streamed(c, async () => {
      await next()
      await gzipWholeJson(c)
    })
}
