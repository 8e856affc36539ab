// The captured streaming request sent with node:http(s) (decision 056): its body is read
// as a Node stream, so a chunk costs one Buffer and one iterator step instead of undici's WHATWG
// byte stream (a ReadableStream read, its promise and its queue per chunk). One keep-alive agent
// per protocol, as undici keeps its connections. No proxy: Loris configures none for fetch either.
import http from 'node:http'
import https from 'node:https'
import { finished } from 'node:stream'

/** A response body, read chunk by chunk by the lean path (lean-stream.ts readWire). */
export interface WireBody {
  next(): Promise<IteratorResult<Uint8Array, unknown>>
  /**
   * Hands each chunk to `onChunk` as it arrives (no promise per chunk); settles when the body
   * ends, or fails with its error (a throw in `onChunk` included). Use it or `next`, not both.
   */
  read(onChunk: (chunk: Uint8Array) => void): Promise<void>
  /** Stops the body (a stop, a timeout, or the end of the read); safe to call more than once. */
  cancel(reason?: unknown): void
}

export interface WireResponse {
  status: number
  statusText: string
  headers: Headers
  /** Only for a 2xx answer; an error's body is read with `text()`. */
  body?: WireBody
  text(): Promise<string>
}

/**
 * Idle connections kept per provider host: as many as replies this node streams at once. Node's
 * default keeps 256 and closes the rest as they free up, so every burst past 256 replies opened
 * (with TLS, handshook) its connections again: 4 percent of the server's CPU at 500 streams.
 * An idle connection costs a socket and a few KB; the provider closes those it does not want.
 */
export const MAX_IDLE_CONNECTIONS = 2048

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxFreeSockets: MAX_IDLE_CONNECTIONS }),
  'https:': new https.Agent({ keepAlive: true, maxFreeSockets: MAX_IDLE_CONNECTIONS }),
}

/** Counted by tests: requests sent this way. */
export const nodeRequestStats = { requests: 0 }

function plainHeaders(init: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  if (!init) return out
  if (init instanceof Headers || Array.isArray(init)) {
    for (const [k, v] of init instanceof Headers ? init.entries() : init) out[k.toLowerCase()] = v
    return out
  }
  for (const [k, v] of Object.entries(init)) if (v !== undefined) out[k.toLowerCase()] = v
  return out
}

function responseHeaders(res: http.IncomingMessage): Headers {
  const headers = new Headers()
  for (const [k, v] of Object.entries(res.headers))
    if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v)
  return headers
}

function nodeBody(res: http.IncomingMessage): WireBody {
  // Made with the first `next` only: it puts the stream in the mode `read` does not use.
  let chunks: AsyncIterator<Uint8Array> | undefined
  return {
    next: () => {
      chunks ??= res[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>
      return chunks.next()
    },
    // 'data' events rather than the stream's async iterator: the iterator makes a promise and
    // a read() per chunk, about a tenth of what reading a chunk costs.
    read: (onChunk) =>
      new Promise<void>((resolve, reject) => {
        const take = (chunk: Uint8Array) => {
          try {
            onChunk(chunk)
          } catch (error) {
            res.destroy(error instanceof Error ? error : new Error(String(error)))
          }
        }
        res.on('data', take)
        // As the iterator ends: an error, or a close before the end (ERR_STREAM_PREMATURE_CLOSE).
        finished(res, (error) => {
          res.off('data', take)
          if (error) reject(error)
          else resolve()
        })
      }),
    cancel: (reason) => {
      // A body read to its end keeps its socket for the next request.
      if (!res.complete) res.destroy(reason instanceof Error ? reason : undefined)
    },
  }
}

async function readText(res: http.IncomingMessage): Promise<string> {
  const parts: Buffer[] = []
  for await (const chunk of res) parts.push(chunk as Buffer)
  return Buffer.concat(parts).toString('utf8')
}

/**
 * POSTs a string body as fetch would (method, headers, signal) and answers once the status and
 * headers are in. An abort before or during the body rejects (or fails the next read) with the
 * signal's reason, as fetch does.
 */
export function nodeRequest(url: string, init: RequestInit & { body: string }): Promise<WireResponse> {
  const target = new URL(url)
  const headers = plainHeaders(init.headers)
  const body = Buffer.from(init.body)
  headers['content-length'] = String(body.length)
  return send(target, headers, { ...init, body }, false)
}

/**
 * A kept-alive connection the provider closed as it went idle can be reused at the very moment it
 * closes: the request then fails before any answer, and the provider never read it (seen once in
 * 1,500 streams after the bench's idle spells). Its reset shows as ECONNRESET, or as EPIPE when a
 * write follows it. Such a request is sent once more, as Node's documentation advises
 * (`request.reusedSocket`), on a connection of its own: when every kept connection went idle at
 * once, the next kept one is as likely to be closed too.
 */
function isStaleConnection(req: http.ClientRequest, error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return req.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE')
}

function send(
  target: URL,
  headers: Record<string, string>,
  init: RequestInit & { body: Buffer },
  isRetry: boolean,
): Promise<WireResponse> {
  // The retry's connection is new and not kept (`agent: false`): no kept one can be taken.
  const agent = isRetry ? false : target.protocol === 'https:' ? agents['https:'] : agents['http:']
  const transport = target.protocol === 'https:' ? https : http
  const signal = init.signal ?? undefined
  nodeRequestStats.requests++
  return new Promise<WireResponse>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    let response: http.IncomingMessage | undefined
    const req = transport.request(target, { method: init.method ?? 'POST', headers, agent }, (res) => {
      response = res
      const ok = res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300
      res.once('close', () => signal?.removeEventListener('abort', onAbort))
      resolve({
        status: res.statusCode ?? 0,
        statusText: res.statusMessage ?? '',
        headers: responseHeaders(res),
        body: ok ? nodeBody(res) : undefined,
        text: () => readText(res),
      })
    })
    const onAbort = () => {
      const reason = signal?.reason
      const error = reason instanceof Error ? reason : undefined
      // Once the answer is in, its body fails with the reason (the next read throws it).
      if (response) response.destroy(error)
      else {
        req.destroy(error)
        reject(reason)
      }
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    req.once('error', (error) => {
      signal?.removeEventListener('abort', onAbort)
      if (!isRetry && !response && !signal?.aborted && isStaleConnection(req, error))
        resolve(send(target, headers, init, true))
      else reject(error)
    })
    req.end(init.body)
  })
}
