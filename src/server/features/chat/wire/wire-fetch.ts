// The seam between the AI SDK and the hot loop (decision 019): the SDK providers are given this
// `fetch`. Inside `captureWire` (the lean path's `doStream` call) the successful streaming
// response is kept for the hot loop, which reads its chunks itself (model-stream.ts), and the SDK
// is handed an empty event stream. So the SDK still builds the request exactly as before (prompt
// conversion, headers, options) and still turns an HTTP error (429, 5xx, a 400 with the vendor's
// error JSON) into its APICallError; only the per-chunk parsing moves. Outside `captureWire`
// (transcription, non-streaming calls) it is the plain fetch.
import { AsyncLocalStorage } from 'node:async_hooks'
import type { WireFormat } from './chunks.ts'

export interface WireCapture {
  format?: WireFormat
  body?: ReadableStream<Uint8Array>
  url?: string
  /** Sends the same request again with `extra` merged into its JSON body (Gemini continuation). */
  repost?: (extra: Record<string, unknown>) => Promise<Response>
}

const current = new AsyncLocalStorage<WireCapture>()

/** Runs `fn` (a `doStream` call) so that the streaming response it fetches lands in `capture`. */
export function captureWire<T>(capture: WireCapture, fn: () => PromiseLike<T>): PromiseLike<T> {
  return current.run(capture, fn)
}

export function wireFetch(format: WireFormat, base?: typeof fetch): typeof fetch {
  const send: typeof fetch = (input, init) => (base ?? globalThis.fetch)(input, init)
  return async (input, init) => {
    const res = await send(input, init)
    const capture = current.getStore()
    if (!capture || capture.body || !res.ok || !res.body) return res
    capture.format = format
    capture.body = res.body
    capture.url = input instanceof Request ? input.url : String(input)
    capture.repost = (extra) => {
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {}
      return send(input, { ...init, body: JSON.stringify({ ...body, ...extra }) })
    }
    return new Response('', { status: res.status, statusText: res.statusText, headers: res.headers })
  }
}
