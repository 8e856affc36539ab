// The providers' wire formats read in the hot loop (decision 056), through the real SDK providers
// (which still build the request and report HTTP errors) and a fetch answering with chosen bytes,
// cut wherever a network could cut them.
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModelV3 } from '@ai-sdk/provider'
import { APICallError, JSONParseError } from 'ai'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type LeanPart, leanStream, wireStats } from '../lean-stream.ts'
import { wireFetch } from './wire-fetch.ts'

const encoder = new TextEncoder()

/** A fetch answering each call with the next response: byte chunks, or a status and body. */
function fakeFetch(
  answers: ({ chunks: (string | Uint8Array)[]; silentAfter?: boolean } | { status: number; body: string })[],
) {
  const requests: { url: string; body: Record<string, unknown> }[] = []
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    requests.push({ url: String(input), body: JSON.parse(String(init?.body)) })
    const answer = answers.shift()
    if (!answer) throw new Error('no answer left')
    if ('status' in answer)
      return new Response(answer.body, {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
      })
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const chunk of answer.chunks)
          c.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk)
        // A provider gone silent, ignoring the signal: only the reader's cancel ends it.
        if (!answer.silentAfter) c.close()
      },
    })
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } })
  }) as typeof globalThis.fetch
  return { fetch, requests }
}

const sse = (...values: unknown[]) =>
  values.map((v) => `data: ${typeof v === 'string' ? v : JSON.stringify(v)}\n\n`).join('')

function gemini(fetch: typeof globalThis.fetch) {
  const google = createGoogleGenerativeAI({
    apiKey: 'k',
    baseURL: 'http://gemini.test/v1beta',
    fetch: wireFetch('gemini', fetch),
  })
  return google('gemini-2.5-pro') as LanguageModelV3
}
function openai(fetch: typeof globalThis.fetch) {
  return createOpenAI({
    apiKey: 'k',
    baseURL: 'http://openai.test/v1',
    fetch: wireFetch('openai-chat', fetch),
  }).chat('gpt-3.5-turbo') as LanguageModelV3
}
function compatible(fetch: typeof globalThis.fetch) {
  return createOpenAICompatible({
    name: 'eco',
    baseURL: 'http://eco.test/v1',
    includeUsage: true,
    fetch: wireFetch('openai-compatible', fetch),
  }).chatModel('eco') as LanguageModelV3
}

const input = { messages: [{ role: 'user' as const, content: 'Hello' }] }
async function collect(model: LanguageModelV3) {
  const out: LeanPart[] = []
  const stream = leanStream(model, input, {
    signal: new AbortController().signal,
    totalMs: 5000,
    chunkMs: 5000,
  })
  for await (const p of stream) out.push(p)
  return out
}
const textOf = (parts: LeanPart[]) => parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join('')
const errorsOf = (parts: LeanPart[]) => parts.flatMap((p) => (p.type === 'error' ? [p.error] : []))
const finishOf = (parts: LeanPart[]) => parts.find((p) => p.type === 'finish')

const geminiChunk = (text: string, extra: Record<string, unknown> = {}) => ({
  candidates: [{ content: { parts: [{ text }], role: 'model' }, index: 0, ...extra }],
})
const usageMetadata = {
  promptTokenCount: 5,
  candidatesTokenCount: 3,
  thoughtsTokenCount: 2,
  totalTokenCount: 10,
}

afterEach(() => vi.restoreAllMocks())

describe('Gemini streamGenerateContent', () => {
  it('reads text split anywhere, even inside a UTF-8 character, and counts thoughts as output', async () => {
    const bytes = encoder.encode(
      sse(geminiChunk('Grüße '), geminiChunk('🌍 ok', { finishReason: 'STOP' }), {
        ...geminiChunk(''),
        usageMetadata,
      }),
    )
    const umlaut = bytes.indexOf(0xc3) + 1
    const globe = bytes.indexOf(0xf0) + 2
    const { fetch, requests } = fakeFetch([
      { chunks: [bytes.slice(0, umlaut), bytes.slice(umlaut, globe), bytes.slice(globe)] },
    ])
    const parts = await collect(gemini(fetch))
    expect(textOf(parts)).toBe('Grüße 🌍 ok')
    expect(finishOf(parts)).toEqual({ type: 'finish', usage: { inputTokens: 5, outputTokens: 5 } })
    expect(errorsOf(parts)).toEqual([])
    // The SDK built the request as before.
    expect(requests[0]?.url).toBe(
      'http://gemini.test/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    )
    expect(requests[0]?.body.contents).toEqual([{ role: 'user', parts: [{ text: 'Hello' }] }])
  })

  it('never shows thought parts as text', async () => {
    const { fetch } = fakeFetch([
      {
        chunks: [
          sse(
            { candidates: [{ content: { parts: [{ text: 'Let me think', thought: true }] } }] },
            {
              candidates: [
                { content: { parts: [{ text: '', thoughtSignature: 'abc' }, { text: 'Answer' }] } },
              ],
            },
          ),
        ],
      },
    ])
    expect(textOf(await collect(gemini(fetch)))).toBe('Answer')
  })

  it('shows nothing of a blocked prompt; a SAFETY finish keeps what came', async () => {
    const blocked = fakeFetch([
      { chunks: [sse({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata })] },
    ])
    const parts = await collect(gemini(blocked.fetch))
    expect(textOf(parts)).toBe('')
    expect(errorsOf(parts)).toEqual([])
    const safety = fakeFetch([
      { chunks: [sse(geminiChunk('Part'), geminiChunk('', { finishReason: 'SAFETY' }))] },
    ])
    expect(textOf(await collect(gemini(safety.fetch)))).toBe('Part')
  })

  it('turns an error chunk into an error part with its HTTP status, and malformed JSON into a parse error', async () => {
    const { fetch } = fakeFetch([
      {
        chunks: [
          sse(geminiChunk('Hi'), '{"candidates": [', {
            error: { code: 429, message: 'Resource exhausted', status: 'RESOURCE_EXHAUSTED' },
          }),
          sse(geminiChunk(' there')),
        ],
      },
    ])
    const parts = await collect(gemini(fetch))
    expect(textOf(parts)).toBe('Hi there')
    const [parse, vendor] = errorsOf(parts)
    expect(JSONParseError.isInstance(parse)).toBe(true)
    expect(APICallError.isInstance(vendor) && vendor.statusCode).toBe(429)
  })

  it('leaves HTTP errors to the SDK: a 429 with the vendor JSON is its APICallError', async () => {
    const { fetch } = fakeFetch([
      {
        status: 429,
        body: JSON.stringify({ error: { code: 429, message: 'Slow down', status: 'RESOURCE_EXHAUSTED' } }),
      },
    ])
    const error = await collect(gemini(fetch)).catch((e: unknown) => e)
    expect(APICallError.isInstance(error) && [error.statusCode, error.message]).toEqual([429, 'Slow down'])
  })

  it('reads on into a continued reply, adding the usage of both requests', async () => {
    const { fetch, requests } = fakeFetch([
      {
        chunks: [
          sse({
            ...geminiChunk('First', { finishReason: 'CONTINUATION', continuationToken: 'tok' }),
            usageMetadata,
          }),
        ],
      },
      { chunks: [sse({ ...geminiChunk(' second', { finishReason: 'STOP' }), usageMetadata })] },
    ])
    const parts = await collect(gemini(fetch))
    expect(textOf(parts)).toBe('First second')
    expect(requests[1]?.body.continuationToken).toBe('tok')
    expect(finishOf(parts)).toEqual({ type: 'finish', usage: { inputTokens: 10, outputTokens: 10 } })
  })
})

describe('OpenAI chat completions', () => {
  const delta = (content: string, finish: string | null = null) => ({
    id: 'c',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: { content }, finish_reason: finish }],
  })
  const usage = { id: 'c', choices: [], usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } }

  it('reads text and usage across CRLF lines, comments and [DONE]', async () => {
    const body = `: hello\r\n\r\n${sse(delta('Hel'), delta('lo', 'stop'), usage, '[DONE]').replaceAll('\n', '\r\n')}`
    const { fetch, requests } = fakeFetch([{ chunks: [body.slice(0, 7), body.slice(7, 40), body.slice(40)] }])
    const parts = await collect(openai(fetch))
    expect(textOf(parts)).toBe('Hello')
    expect(finishOf(parts)).toEqual({ type: 'finish', usage: { inputTokens: 9, outputTokens: 4 } })
    expect(requests[0]?.body).toMatchObject({ model: 'gpt-3.5-turbo', stream: true })
  })

  it('an error before any output carries the status it stands for; after output it is an error part', async () => {
    const early = fakeFetch([
      { chunks: [sse({ error: { message: 'Rate limit reached', type: 'rate_limit_exceeded' } })] },
    ])
    const [error] = errorsOf(await collect(openai(early.fetch)))
    expect(APICallError.isInstance(error) && error.statusCode).toBe(429)
    const late = fakeFetch([
      { chunks: [sse(delta('Hi'), { error: { message: 'broke', type: 'server_error' } })] },
    ])
    const parts = await collect(openai(late.fetch))
    expect(textOf(parts)).toBe('Hi')
    expect(errorsOf(parts)).toEqual([{ message: 'broke', type: 'server_error' }])
  })

  it('the compatible endpoint: reasoning is not text, and a stream without a finish reason is an error', async () => {
    const thinking = { choices: [{ index: 0, delta: { reasoning_content: 'hmm' }, finish_reason: null }] }
    const { fetch } = fakeFetch([{ chunks: [sse(thinking, delta('Yes'))] }])
    const parts = await collect(compatible(fetch))
    expect(textOf(parts)).toBe('Yes')
    expect(errorsOf(parts)).toHaveLength(1)
    const whole = fakeFetch([{ chunks: [sse(delta('Yes', 'stop'), usage, '[DONE]')] }])
    const done = await collect(compatible(whole.fetch))
    expect(errorsOf(done)).toEqual([])
    expect(finishOf(done)).toEqual({ type: 'finish', usage: { inputTokens: 9, outputTokens: 4 } })
  })
})

describe('stop and timeouts', () => {
  it('a Stop ends a silent stream with an AbortError, a quiet provider with a TimeoutError', async () => {
    const stop = new AbortController()
    const silent = fakeFetch([{ chunks: [sse(geminiChunk('Hi'))], silentAfter: true }])
    const stream = leanStream(gemini(silent.fetch), input, {
      signal: stop.signal,
      totalMs: 5000,
      chunkMs: 5000,
    })
    expect((await stream.next()).value).toEqual({ type: 'text-delta', text: 'Hi' })
    stop.abort()
    await expect(stream.next()).rejects.toMatchObject({ name: 'AbortError' })

    const quiet = fakeFetch([{ chunks: [sse(geminiChunk('Hi'))], silentAfter: true }])
    const parts = leanStream(gemini(quiet.fetch), input, {
      signal: new AbortController().signal,
      totalMs: 5000,
      chunkMs: 50,
    })
    await expect(
      (async () => {
        for await (const _ of parts);
      })(),
    ).rejects.toMatchObject({ name: 'TimeoutError' })
  })
})

describe('work per chunk', () => {
  it('parses each event once and never runs the SDK chunk parser (zod) on it', async () => {
    const chunks = Array.from({ length: 200 }, (_, i) => sse(geminiChunk(`t${i} `)))
    const { fetch } = fakeFetch([{ chunks: [...chunks, sse({ ...geminiChunk(''), usageMetadata })] }])
    const model = gemini(fetch)
    const parse = vi.spyOn(JSON, 'parse')
    const before = { ...wireStats }
    const parts = await collect(model)
    expect(textOf(parts)).toBe(Array.from({ length: 200 }, (_, i) => `t${i} `).join(''))
    expect(wireStats.events - before.events).toBe(201)
    expect(wireStats.reads - before.reads).toBe(201)
    // 201 events, plus the one request body the fake fetch reads: the SDK's own reader, which
    // parses every chunk again and validates it with zod, saw none of them.
    expect(parse).toHaveBeenCalledTimes(202)
  })

  it('hands the text over in the read loop: nothing yielded per read, no SDK stream, only the end', async () => {
    const chunks = Array.from({ length: 200 }, (_, i) => sse(geminiChunk(`t${i} `)))
    const { fetch } = fakeFetch([{ chunks: [...chunks, sse({ ...geminiChunk(''), usageMetadata })] }])
    const texts: string[] = []
    const parts: LeanPart[] = []
    // The SDK sets up no parsing streams of its own for the captured body.
    const piped = vi.spyOn(ReadableStream.prototype, 'pipeThrough')
    const stream = leanStream(gemini(fetch), input, {
      signal: new AbortController().signal,
      totalMs: 5000,
      chunkMs: 5000,
      onText: (text) => texts.push(text),
    })
    for await (const p of stream) parts.push(p)
    // One hand-over per network read that carried text, and a single part: the finish.
    expect(texts).toHaveLength(200)
    expect(texts.join('')).toBe(Array.from({ length: 200 }, (_, i) => `t${i} `).join(''))
    expect(parts).toEqual([{ type: 'finish', usage: { inputTokens: 5, outputTokens: 5 } }])
    expect(piped).not.toHaveBeenCalled()
  })
})
