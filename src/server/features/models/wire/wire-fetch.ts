// The seam between the AI SDK and the lean token path (decision 056): the SDK providers are given this
// `fetch`. Inside `captureWire` (lean-stream.ts's `doStream` call) the successful streaming
// response is kept for the lean path, which reads its chunks itself (lean-stream.ts), and the SDK
// never sees its body: the fetch throws `Captured`, which passes through the SDK unchanged and
// ends `doStream` before it sets up parsing streams for a body it would not read. So the SDK still
// builds the request exactly as before (prompt conversion, headers, options) and still turns an
// HTTP error (429, 5xx, a 400 with the vendor's error JSON) into its APICallError; only the
// per-chunk parsing moves. Outside `captureWire` (transcription, non-streaming calls) it is the
// plain fetch. The fetch finds the capture by the call's abort signal, which the SDK hands to it
// unchanged (an AsyncLocalStorage would turn on Node's promise hooks for the whole process: a cost
// on every await of every stream).
// The captured request itself is sent with node:http(s) (wire/node-request.ts), not undici's
// fetch: its body is then read as a Node stream, without a WHATWG ReadableStream per chunk.
import type { WireFormat } from './chunks.ts'
import { nodeRequest, type WireBody, type WireResponse } from './node-request.ts'

export type { WireBody } from './node-request.ts'

export interface WireCapture {
  format?: WireFormat
  body?: WireBody
  url?: string
  /** Sends the same request again with `extra` merged into its JSON body (Gemini continuation). */
  repost?: (extra: Record<string, unknown>) => Promise<WireResponse>
}

const captures = new WeakMap<AbortSignal, WireCapture>()

/**
 * Thrown by the fetch once it has captured a streaming body; `captureWire` catches it. Made
 * without a stack trace: it is thrown by every streamed reply and never shown, and capturing the
 * stack of the SDK's async chain was 35 microseconds of each send's start.
 */
class Captured extends Error {
  constructor() {
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 0
    try {
      super('captured by the wire reader')
    } finally {
      Error.stackTraceLimit = limit
    }
  }
}

/**
 * Runs `fn` (a `doStream` call given `signal` as its abortSignal) so that the streaming response
 * it fetches lands in `capture`: then it answers null (the SDK's own result was never made);
 * otherwise what `fn` answered (a provider or a fetch the seam does not capture). `signal` must
 * be this call's own.
 */
export async function captureWire<T>(
  capture: WireCapture,
  signal: AbortSignal,
  fn: () => PromiseLike<T>,
): Promise<T | null> {
  captures.set(signal, capture)
  try {
    return await fn()
  } catch (err) {
    if (err instanceof Captured && capture.body) return null
    throw err
  } finally {
    captures.delete(signal)
  }
}

/** A fetch Response's body as a WireBody (a `fetch` given by tests, or a body not sent by us). */
function fetchBody(body: ReadableStream<Uint8Array>): WireBody {
  const reader = body.getReader()
  return {
    next: () => reader.read(),
    read: async (onChunk) => {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return
        onChunk(value)
      }
    },
    cancel: (reason) => void reader.cancel(reason).catch(() => undefined),
  }
}

async function viaFetch(
  send: typeof fetch,
  input: string,
  init: RequestInit | undefined,
): Promise<WireResponse> {
  const res = await send(input, init)
  return {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
    body: res.ok && res.body ? fetchBody(res.body) : undefined,
    text: () => res.text(),
  }
}

/**
 * `base`, when given (tests), sends every request; otherwise the captured streaming request goes
 * through node:http(s) and everything else through the global fetch.
 */
export function wireFetch(format: WireFormat, base?: typeof fetch): typeof fetch {
  const send: typeof fetch = (input, init) => (base ?? globalThis.fetch)(input, init)
  const stream = async (url: string, init: RequestInit | undefined) => {
    const body = init?.body
    if (typeof body === 'string' && !base) return nodeRequest(url, { ...init, body })
    return viaFetch(send, url, init)
  }
  return async (input, init) => {
    const capture = init?.signal ? captures.get(init.signal) : undefined
    // The SDK passes a URL string; a Request (never seen) keeps the plain path.
    if (!capture || capture.body || input instanceof Request) return send(input, init)
    const url = String(input)
    const res = await stream(url, init)
    if (!res.body) {
      // An HTTP error: the SDK reads it from a real Response, so its error mapping is unchanged.
      const text = await res.text()
      return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers })
    }
    capture.format = format
    capture.body = res.body
    capture.url = url
    capture.repost = (extra) => {
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {}
      return stream(url, { ...init, body: JSON.stringify({ ...body, ...extra }) })
    }
    throw new Captured()
  }
}
