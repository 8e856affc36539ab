// The captured streaming request sent with node:http (decision 056): the real SDK providers against
// the loopback AI stand-in, no `fetch` given, so the production path runs. Counts that the hot loop
// reads no WHATWG stream per chunk, and that HTTP errors and stops end as they did with fetch.

import { Readable } from 'node:stream'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import type { LanguageModelV3 } from '@ai-sdk/provider'
import { APICallError } from 'ai'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type AiStandIn, startAiStandIn } from '../../../../../tests/stand-ins/ai-providers.ts'
import { type LeanPart, leanStream, wireStats } from '../lean-stream.ts'
import { MAX_IDLE_CONNECTIONS, nodeRequestStats } from './node-request.ts'
import { wireFetch } from './wire-fetch.ts'

let ai: AiStandIn
beforeAll(async () => {
  ai = await startAiStandIn()
})
afterAll(() => ai.close())
beforeEach(() => ai.reset())

const gemini = () =>
  createGoogleGenerativeAI({ apiKey: 'k', baseURL: ai.geminiBaseUrl, fetch: wireFetch('gemini') })(
    'gemini-2.5-flash',
  ) as LanguageModelV3
const openai = () =>
  createOpenAI({ apiKey: 'k', baseURL: ai.openaiBaseUrl, fetch: wireFetch('openai-chat') }).chat(
    'gpt-3.5-turbo',
  ) as LanguageModelV3

async function collect(model: LanguageModelV3, content: string, signal = new AbortController().signal) {
  const out: LeanPart[] = []
  for await (const p of leanStream(
    model,
    { messages: [{ role: 'user', content }] },
    {
      signal,
      totalMs: 10_000,
      chunkMs: 10_000,
    },
  ))
    out.push(p)
  return out
}

/**
 * As the generation reads a reply: the text handed over as each chunk arrives (`onText`), only
 * the end yielded. `onText` may stop the reply (after its first text, when `stop` is given).
 */
async function handOver(
  model: LanguageModelV3,
  content: string,
  stop?: { controller: AbortController; reason: unknown },
) {
  const texts: string[] = []
  const parts: LeanPart[] = []
  const signal = stop?.controller.signal ?? new AbortController().signal
  const stream = leanStream(
    model,
    { messages: [{ role: 'user', content }] },
    {
      signal,
      totalMs: 10_000,
      chunkMs: 10_000,
      onText: (text) => {
        texts.push(text)
        stop?.controller.abort(stop.reason)
      },
    },
  )
  const error = await (async () => {
    for await (const p of stream) parts.push(p)
  })().catch((e: unknown) => e)
  return { texts, parts, error }
}
const textOf = (parts: LeanPart[]) => parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join('')

/** The WHATWG reader every ReadableStream read goes through, fetch's body included. */
const readerProto = Object.getPrototypeOf(new ReadableStream().getReader()) as ReadableStreamDefaultReader

describe.each([
  ['gemini', gemini],
  ['openai', openai],
])('%s over node:http', (_name, model) => {
  it('streams the reply with no ReadableStream read per chunk', async () => {
    const words = Array.from({ length: 90 }, (_, i) => `w${i}`).join(' ')
    const requests = nodeRequestStats.requests
    const reads = wireStats.reads
    const spy = vi.spyOn(readerProto, 'read')
    try {
      const parts = await collect(model(), words)
      expect(textOf(parts)).toContain(`Echo: ${words}`)
      expect(parts.at(-1)?.type).toBe('finish')
    } finally {
      spy.mockRestore()
    }
    expect(nodeRequestStats.requests - requests).toBe(1)
    // About 30 chunks read from the socket, and no WHATWG read for any of them.
    expect(wireStats.reads - reads).toBeGreaterThanOrEqual(20)
    expect(spy.mock.calls.length).toBeLessThan(5)
    expect(ai.requests[0]?.headers.authorization ?? ai.requests[0]?.headers['x-goog-api-key']).toBeTruthy()
  })

  it('hands the text over as each chunk arrives, with no promise per chunk', async () => {
    const words = Array.from({ length: 90 }, (_, i) => `w${i}`).join(' ')
    const reads = wireStats.reads
    const next = vi.spyOn(Readable.prototype, Symbol.asyncIterator)
    try {
      const { texts, parts, error } = await handOver(model(), words)
      expect(error).toBeUndefined()
      expect(texts.join('')).toContain(`Echo: ${words}`)
      expect(parts).toHaveLength(1)
      expect(parts[0]?.type).toBe('finish')
    } finally {
      next.mockRestore()
    }
    expect(wireStats.reads - reads).toBeGreaterThanOrEqual(20)
    // The body was read by its 'data' events: no async iterator was made for it.
    expect(next).not.toHaveBeenCalled()
  })

  it('handing over, a stop ends the read with the signal reason; a broken connection with an error', async () => {
    ai.setScenario('slow')
    const stop = { controller: new AbortController(), reason: new DOMException('Stopped', 'AbortError') }
    const stopped = await handOver(model(), 'one two three four', stop)
    expect(stopped.error).toBe(stop.reason)
    expect(stopped.texts.length).toBeGreaterThan(0)

    ai.setScenario('error-mid-stream')
    const broken = await handOver(model(), 'one two three four five six')
    expect(broken.error).toBeInstanceOf(Error)
    expect(broken.texts.join('').length).toBeGreaterThan(0)
  })

  it('gives the SDK the HTTP error as a Response, so it is its APICallError', async () => {
    ai.setScenario('upstream-error')
    const error = await collect(model(), 'hi').catch((e: unknown) => e)
    expect(APICallError.isInstance(error)).toBe(true)
    expect((error as APICallError).statusCode).toBe(500)
    expect((error as APICallError).responseBody).toContain('scenario upstream-error')
  })

  it('a stop mid-stream ends the read with the signal reason and closes the connection', async () => {
    ai.setScenario('slow')
    const stop = new AbortController()
    const parts: LeanPart[] = []
    const stream = leanStream(
      model(),
      { messages: [{ role: 'user', content: 'one two three four' }] },
      {
        signal: stop.signal,
        totalMs: 10_000,
        chunkMs: 10_000,
      },
    )
    const reason = new DOMException('Stopped', 'AbortError')
    const error = await (async () => {
      for await (const p of stream) {
        parts.push(p)
        if (p.type === 'text-delta') stop.abort(reason)
      }
    })().catch((e: unknown) => e)
    expect(error).toBe(reason)
    expect(textOf(parts).length).toBeGreaterThan(0)
  })

  it('a stop before the answer rejects with the signal reason', async () => {
    ai.setChunkDelayMs(2000)
    const stop = new AbortController()
    const reason = new DOMException('Too slow', 'TimeoutError')
    stop.abort(reason)
    const error = await collect(model(), 'hi', stop.signal).catch((e: unknown) => e)
    expect(error).toBe(reason)
  })
})

describe('connections to a provider', () => {
  it('keeps one per reply of a burst past 256, so the next burst opens none', async () => {
    expect(MAX_IDLE_CONNECTIONS).toBeGreaterThanOrEqual(1000)
    const burst = () => Promise.all(Array.from({ length: 300 }, () => collect(gemini(), 'hi')))
    await burst()
    // Every connection of the first burst is idle now (the stand-in closes none).
    const opened = ai.connections()
    const replies = await burst()
    expect(replies.every((parts) => parts.at(-1)?.type === 'finish')).toBe(true)
    expect(ai.connections() - opened).toBe(0)
  }, 60_000)
})
