// Server-sent events for the stand-ins, paced like a real model and able to break the connection
// mid-stream the way an upstream crash does (the client sees a reset, not a clean end).
import type { ServerResponse } from 'node:http'

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export function openSse(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  })
  res.flushHeaders()
  // A reader that goes away (browser reload, aborted fetch) must not crash the stand-in.
  res.on('error', () => {})
}

// Resolves once the frame is handed to the kernel, so a following abort cannot swallow it.
// Returns false when the client has already gone, telling the caller to stop producing.
export function writeSse(res: ServerResponse, data: unknown): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return Promise.resolve(false)
  const payload = typeof data === 'string' ? data : JSON.stringify(data)
  return new Promise((resolve) => res.write(`data: ${payload}\n\n`, (error) => resolve(!error)))
}

// Drops the TCP connection without the terminating chunk: fetch readers fail with "terminated".
export function breakConnection(res: ServerResponse): void {
  res.socket?.destroy()
  res.destroy()
}

export interface SseEncoder {
  start(): unknown[]
  delta(text: string, isLast: boolean): unknown[]
  end(): unknown[]
}

export interface StreamPlan {
  chunks: string[]
  delayMs: number
  // Number of text chunks to deliver before breaking the connection; undefined streams to the end.
  breakAfter?: number
  // Appends `chunkStamp()` to each chunk as it is written (the load bench times every token by it).
  stamp?: boolean
}

/**
 * Stamps for the load bench: the moment a chunk is sent, written into its text, so a reader in
 * another process on the same machine (performance.timeOrigin + performance.now() on both sides)
 * times every token by its own stamp, whatever the pacing drifted and however Loris gathers tokens
 * into frames. A stamp is 6 punctuation marks and a space: microseconds modulo STAMP_SPAN_US in
 * base 23. Text search indexes no punctuation, so a stamped reply costs the database what the same
 * words would (decision 028); the stamp was `⟨t:1763900000000.123⟩` before, 26 bytes and a number
 * the search index had never seen in every token. The reader knows the arrival time, so the
 * microseconds modulo the span are enough while a delay is under half of it (74 s).
 */
const STAMP_DIGITS = '!#$%&()*+,;<=>?[]^`{|}~'
const STAMP_LENGTH = 6
const STAMP_SPAN_US = STAMP_DIGITS.length ** STAMP_LENGTH
const nowUs = () => Math.round((performance.timeOrigin + performance.now()) * 1000)

export function chunkStamp(atUs = nowUs()): string {
  let rest = atUs % STAMP_SPAN_US
  let out = ''
  for (let i = 0; i < STAMP_LENGTH; i++) {
    out = STAMP_DIGITS[rest % STAMP_DIGITS.length] + out
    rest = Math.floor(rest / STAMP_DIGITS.length)
  }
  return `${out} `
}

// The same alphabet and length as a pattern (`]`, `^` and `\` escaped inside the class).
export const chunkStampPattern = new RegExp(
  `[${STAMP_DIGITS.replace(/[\]\\^]/g, '\\$&')}]{${STAMP_LENGTH}} `,
  'g',
)

/** Milliseconds from the stamp's moment to `arrivedMs` (epoch, as performance.timeOrigin + now()). */
export function stampDelayMs(stamp: string, arrivedMs: number): number {
  let at = 0
  for (const c of stamp.slice(0, STAMP_LENGTH)) at = at * STAMP_DIGITS.length + STAMP_DIGITS.indexOf(c)
  const arrivedUs = Math.round(arrivedMs * 1000)
  // The difference modulo the span, taken between minus and plus half of it.
  const half = STAMP_SPAN_US / 2
  const diff = ((((arrivedUs - at) % STAMP_SPAN_US) + STAMP_SPAN_US + half) % STAMP_SPAN_US) - half
  return diff / 1000
}

// Writes start frames, one delta per text chunk with a pause between them, then end frames.
export async function streamSse(res: ServerResponse, encoder: SseEncoder, plan: StreamPlan): Promise<void> {
  openSse(res)
  const send = async (frames: unknown[]) => {
    for (const frame of frames) if (!(await writeSse(res, frame))) return false
    return true
  }
  if (!(await send(encoder.start()))) return
  // An empty reply still needs one delta: it carries the finish reason and usage for Gemini.
  const chunks = plan.chunks.length > 0 ? plan.chunks : ['']
  for (const [index, chunk] of chunks.entries()) {
    if (index > 0) await sleep(plan.delayMs)
    if (index === plan.breakAfter) return breakConnection(res)
    const text = plan.stamp ? `${chunk}${chunkStamp()}` : chunk
    if (!(await send(encoder.delta(text, index === chunks.length - 1)))) return
  }
  // A reply shorter than breakAfter still breaks, just before its finish frames.
  if (plan.breakAfter !== undefined) return breakConnection(res)
  if (await send(encoder.end())) res.end()
}
