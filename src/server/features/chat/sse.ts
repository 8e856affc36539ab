// The `text/event-stream` answer of POST /api/messages: `data: {json}` lines (spec section 7),
// plus a comment line now and then so proxies do not close a quiet stream. Served by Node, the
// events go straight to the Node response, one `write` each (decision 019); elsewhere (app.request
// in tests) the Response's body carries them.
import { ServerResponse } from 'node:http'
import type { Http2Bindings, HttpBindings } from '@hono/node-server'
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'
import type { ChatEvent } from '#contract/chat-events.ts'

const encoder = new TextEncoder()
const HEARTBEAT_MS = 15_000
/** A client this far behind (bytes waiting in its socket) is dropped rather than buffered for. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024

export interface SseSink {
  send(event: ChatEvent): void
  /** Ends the stream; safe to call more than once. */
  close(): void
}

type SseStart = (sink: SseSink) => (() => void) | undefined

const frameOf = (event: ChatEvent) => `data: ${JSON.stringify(event)}\n\n`

/** Where the frames go: a ReadableStream's controller or a Node response. */
interface SseOut {
  write(frame: string): void
  end(): void
}

/** Runs `start` with a sink writing to `out`; `finish` ends the stream once and runs its cleanup. */
function runSse(start: SseStart, out: SseOut): () => void {
  let closed = false
  let cleanup: (() => void) | undefined
  const finish = () => {
    if (closed) return
    closed = true
    clearInterval(heartbeat)
    cleanup?.()
    out.end()
  }
  const heartbeat = setInterval(() => out.write(': keep-alive\n\n'), HEARTBEAT_MS)
  const sink: SseSink = {
    send: (e) => {
      if (!closed) out.write(frameOf(e))
    },
    close: finish,
  }
  const stop = start(sink)
  // `start` may have closed the stream already (a replay, an immediate error).
  if (closed) stop?.()
  else cleanup = stop
  return finish
}

/** Responses whose events have not started: `directSse` may still write them to Node itself. */
const pending = new WeakMap<Response, SseStart>()

/**
 * `start` writes events through the sink and returns a cleanup, which runs once: when the stream
 * closes, or when the client goes away (request aborted, body cancelled, connection closed).
 * Going away never stops the work behind the stream, only this subscription to it. Nothing starts
 * until the body is first read or `directSse` takes the response.
 */
export function sseResponse(signal: AbortSignal, start: SseStart): Response {
  let started = false
  let finish: (() => void) | undefined
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (started) return
        started = true
        pending.delete(response)
        if (signal.aborted) return controller.close()
        const out: SseOut = {
          write: (frame) => {
            try {
              controller.enqueue(encoder.encode(frame))
            } catch {
              finish?.()
            }
          },
          end: () => {
            signal.removeEventListener('abort', gone)
            try {
              controller.close()
            } catch {
              // Already closed or errored by the reader.
            }
          },
        }
        const gone = () => finish?.()
        signal.addEventListener('abort', gone, { once: true })
        finish = runSse(start, out)
      },
      cancel: () => finish?.(),
    },
    // No read ahead: the events start on the first read, not when the Response is made.
    { highWaterMark: 0 },
  )
  const response = new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    },
  })
  pending.set(response, start)
  return response
}

/** Counted by tests: SSE responses written straight to the Node response. */
export const directSseStats = { responses: 0 }

/**
 * Writes an SSE response made by `sseResponse` straight to the Node response, with the status and
 * headers it has after every middleware; false for any other response (served as usual).
 */
export function writeSseDirect(res: Response, outgoing: ServerResponse): boolean {
  const start = pending.get(res)
  if (!start || outgoing.headersSent) return false
  pending.delete(res)
  directSseStats.responses++
  const headers: Record<string, string | string[]> = {}
  for (const [name, value] of res.headers) if (name !== 'set-cookie') headers[name] = value
  const cookies = res.headers.getSetCookie()
  if (cookies.length > 0) headers['set-cookie'] = cookies
  // Not flushed on their own: the first event follows at once (runSse writes it before returning),
  // and Node sends the head with it, one packet instead of two per stream.
  outgoing.writeHead(res.status, headers)
  let finish: (() => void) | undefined
  const gone = () => finish?.()
  outgoing.once('close', gone)
  finish = runSse(start, {
    write: (frame) => {
      // The events cannot wait for a slow reader (other followers share them): Node buffers them,
      // and a client that stops reading for megabytes is let go.
      if (!outgoing.write(frame) && outgoing.writableLength > MAX_BUFFERED_BYTES) outgoing.destroy()
    },
    end: () => {
      outgoing.off('close', gone)
      outgoing.end()
    },
  })
  if (outgoing.destroyed) finish()
  return true
}

/**
 * The app's fetch for @hono/node-server: an SSE response the app answered with is written to the
 * Node response here, after every middleware ran (so its headers are the final ones), and the
 * server is told it is already sent.
 */
export function withDirectSse(
  fetch: (req: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>,
): (req: Request, env: HttpBindings | Http2Bindings) => Promise<Response> {
  return async (req, env) => {
    const res = await fetch(req, env)
    // HTTP/2 responses keep the ReadableStream body.
    const outgoing = env?.outgoing
    return outgoing instanceof ServerResponse && writeSseDirect(res, outgoing) ? RESPONSE_ALREADY_SENT : res
  }
}
