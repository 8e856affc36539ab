// The `text/event-stream` answer of POST /api/messages: `data: {json}` lines (spec section 7),
// plus a comment line now and then so proxies do not close a quiet stream.
import type { ChatEvent } from '#contract/chat-events.ts'

const encoder = new TextEncoder()
const HEARTBEAT_MS = 15_000

export interface SseSink {
  send(event: ChatEvent): void
  /** Ends the stream; safe to call more than once. */
  close(): void
}

export const encodeEvent = (event: ChatEvent) => encoder.encode(`data: ${JSON.stringify(event)}\n\n`)

/**
 * `start` writes events through the sink and returns a cleanup, which runs once: when the stream
 * closes, or when the client goes away (request aborted, body cancelled). Going away never stops
 * the work behind the stream, only this subscription to it.
 */
export function sseResponse(
  signal: AbortSignal,
  start: (sink: SseSink) => (() => void) | undefined,
): Response {
  let closed = false
  let cleanup: (() => void) | undefined
  let heartbeat: ReturnType<typeof setInterval> | undefined
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined

  const finish = () => {
    if (closed) return
    closed = true
    clearInterval(heartbeat)
    signal.removeEventListener('abort', finish)
    cleanup?.()
    try {
      controllerRef?.close()
    } catch {
      // Already closed or errored by the reader.
    }
  }
  const enqueue = (bytes: Uint8Array) => {
    if (closed || !controllerRef) return
    try {
      controllerRef.enqueue(bytes)
    } catch {
      finish()
    }
  }

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controllerRef = controller
      if (signal.aborted) return finish()
      signal.addEventListener('abort', finish, { once: true })
      heartbeat = setInterval(() => enqueue(encoder.encode(': keep-alive\n\n')), HEARTBEAT_MS)
      const sink: SseSink = { send: (e) => enqueue(encodeEvent(e)), close: finish }
      const stop = start(sink)
      // `start` may have closed the stream already (a replay, an immediate error).
      if (closed) stop?.()
      else cleanup = stop
    },
    cancel: finish,
  })
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    },
  })
}
