import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ChatEvent } from '#contract/chat-events.ts'
import { NO_STREAM_MESSAGE, NON_JSON_MESSAGE } from '../lib/stream-messages.ts'
import { SendError, streamMessage } from './send-message.ts'

const request = { content: 'Hi', threadId: null, isEcoMode: false, useOpenAI: false, clientMessageId: 'c1' }

function sse(lines: string[], { close = true } = {}) {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const line of lines) controller.enqueue(new TextEncoder().encode(line))
      if (close) controller.close()
    },
  })
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } })
}

function answer(res: Response | (() => never)) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => (typeof res === 'function' ? res() : res)),
  )
}

async function run() {
  const events: ChatEvent[] = []
  const end = await streamMessage(request, {
    signal: new AbortController().signal,
    onEvent: (e) => events.push(e),
  })
  return { end, events }
}

async function failure(): Promise<SendError> {
  const err = await run().catch((e: unknown) => e)
  expect(err).toBeInstanceOf(SendError)
  return err as SendError
}

afterEach(() => vi.unstubAllGlobals())

describe('streamMessage', () => {
  it('passes every event on and resolves with done', async () => {
    answer(
      sse([
        'data: {"id":"m1","threadId":"t1","status":"streaming","text":""}\n\n',
        'data: {"id":"m1","text":"Hel',
        'lo"}\n\n: keep-alive\n\n',
        'data: {"id":"m1","threadId":"t1","done":true,"status":"complete","userMessageCount":2}\n\n',
      ]),
    )
    const { end, events } = await run()
    expect(events.map((e) => e.text ?? null)).toEqual(['', 'Hello', null])
    expect(end).toMatchObject({ done: true, userMessageCount: 2 })
  })

  it('makes a model failure with nothing stored retryable', async () => {
    answer(
      sse([
        'data: {"id":"m1","error":"The model failed","code":"bad_gateway:provider","status":"failed"}\n\n',
      ]),
    )
    const err = await failure()
    expect(err.message).toBe('The model failed')
    expect(err.retryable).toBe(true)
  })

  it('does not retry a reply cut off part-way, nor an unconfigured mode', async () => {
    answer(
      sse([
        'data: {"id":"m1","error":"Cut off","code":"bad_gateway:interrupted","status":"interrupted"}\n\n',
      ]),
    )
    expect((await failure()).retryable).toBe(false)
    answer(
      sse([
        'data: {"error":"Set OPENAI_API_KEY","code":"service_unavailable:provider","status":"failed"}\n\n',
      ]),
    )
    expect((await failure()).retryable).toBe(false)
  })

  it('retries a stream that ends without its last event', async () => {
    answer(sse(['data: {"id":"m1","text":"Hel"}\n\n']))
    expect((await failure()).retryable).toBe(true)
  })

  it('retries a server error and a network failure, not a refusal', async () => {
    answer(new Response('{"code":"internal:server","message":"Oops"}', { status: 500 }))
    expect((await failure()).retryable).toBe(true)
    answer(() => {
      throw new TypeError('fetch failed')
    })
    const network = await failure()
    expect([network.retryable, network.message]).toEqual([true, 'Failed to send message'])
    answer(new Response('{"code":"rate_limited:usage","message":"Limit reached"}', { status: 429 }))
    const refused = await failure()
    expect([refused.retryable, refused.message]).toEqual([false, 'Limit reached'])
  })

  it('names a body that is not an event stream', async () => {
    answer(new Response('<html></html>', { headers: { 'content-type': 'text/html' } }))
    expect((await failure()).message).toBe(NON_JSON_MESSAGE)
    answer(sse(['data: <html>\n\n']))
    expect((await failure()).message).toBe(NON_JSON_MESSAGE)
    answer(new Response(null, { headers: { 'content-type': 'text/event-stream' } }))
    expect((await failure()).message).toBe(NO_STREAM_MESSAGE)
  })
})
