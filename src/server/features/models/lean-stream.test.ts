// The lean token path (decision 016) over a provider model made here: text and usage come
// through, and a stop, a silent provider or an error part end it as streamText ended it.
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { convertToLanguageModelPrompt, standardizePrompt } from 'ai/internal'
import { describe, expect, it } from 'vitest'
import { fakeLanguageModel } from '../../../../tests/helpers/fake-model.ts'
import { type LeanPart, leanModel, leanStream, textOnlyPrompt } from './lean-stream.ts'

/** A provider model streaming `parts`, then either ending or going silent (never closing). */
function fakeModel(parts: LanguageModelV3StreamPart[], opts: { silentAfter?: boolean } = {}) {
  const calls: unknown[] = []
  const model = fakeLanguageModel(async (options) => {
    calls.push(options.prompt)
    return {
      stream: new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          for (const p of parts) controller.enqueue(p)
          if (!opts.silentAfter) controller.close()
        },
      }),
    }
  })
  return { model, calls }
}

const usage = {
  inputTokens: { total: 7, noCache: 7, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 3, text: 3, reasoning: undefined },
}
const input = { system: 'Be brief.', messages: [{ role: 'user' as const, content: 'Hello' }] }

async function collect(stream: AsyncGenerator<LeanPart>) {
  const out: LeanPart[] = []
  for await (const p of stream) out.push(p)
  return out
}

describe('leanStream', () => {
  it('passes text and usage, with the prompt converted as streamText converts it', async () => {
    const { model, calls } = fakeModel([
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hi ' },
      { type: 'text-delta', id: 't', delta: 'there' },
      { type: 'text-end', id: 't' },
      { type: 'finish', usage, finishReason: { unified: 'stop', raw: 'stop' } },
    ] as LanguageModelV3StreamPart[])
    expect(leanModel(model)).toBe(model)
    const parts = await collect(
      leanStream(model, input, { signal: new AbortController().signal, totalMs: 5000, chunkMs: 5000 }),
    )
    expect(parts).toEqual([
      { type: 'text-delta', text: 'Hi ' },
      { type: 'text-delta', text: 'there' },
      { type: 'finish', usage: { inputTokens: 7, outputTokens: 3 } },
    ])
    expect(calls[0]).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Hello' }], providerOptions: undefined },
    ])
  })

  it('reports an error part and ends with the stream', async () => {
    const { model } = fakeModel([{ type: 'error', error: new Error('upstream broke') }])
    const parts = await collect(
      leanStream(model, input, { signal: new AbortController().signal, totalMs: 5000, chunkMs: 5000 }),
    )
    expect(parts).toHaveLength(1)
    expect(parts[0]?.type).toBe('error')
  })

  it('throws a TimeoutError when the provider goes silent, an AbortError on a stop', async () => {
    const silent = fakeModel([{ type: 'text-delta', id: 't', delta: 'Hi' }] as LanguageModelV3StreamPart[], {
      silentAfter: true,
    })
    await expect(
      collect(
        leanStream(silent.model, input, { signal: new AbortController().signal, totalMs: 5000, chunkMs: 50 }),
      ),
    ).rejects.toMatchObject({ name: 'TimeoutError' })

    const stop = new AbortController()
    const again = fakeModel([{ type: 'text-delta', id: 't', delta: 'Hi' }] as LanguageModelV3StreamPart[], {
      silentAfter: true,
    })
    const stream = leanStream(again.model, input, { signal: stop.signal, totalMs: 5000, chunkMs: 5000 })
    expect((await stream.next()).value).toEqual({ type: 'text-delta', text: 'Hi' })
    stop.abort()
    await expect(stream.next()).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('leaves models of an older specification to streamText', () => {
    expect(leanModel('gemini-2.5-pro')).toBeNull()
    expect(leanModel({ specificationVersion: 'v2' } as never)).toBeNull()
  })
})

describe('textOnlyPrompt', () => {
  const conversation = {
    system: 'Be brief.',
    messages: [
      { role: 'user' as const, content: 'Hello' },
      { role: 'assistant' as const, content: 'Hi! How can I help?' },
      { role: 'user' as const, content: '' },
      { role: 'user' as const, content: 'Tell me about “lorises” 🐒' },
    ],
  }

  it('writes a plain text conversation exactly as the SDK converts it', async () => {
    const sdk = await convertToLanguageModelPrompt({
      prompt: await standardizePrompt(conversation),
      supportedUrls: {},
      download: undefined,
    })
    expect(textOnlyPrompt(conversation)).toEqual(sdk)
    expect(textOnlyPrompt({ messages: conversation.messages })).toEqual(
      await convertToLanguageModelPrompt({
        prompt: await standardizePrompt({ messages: conversation.messages }),
        supportedUrls: {},
        download: undefined,
      }),
    )
  })

  it('leaves anything else to the SDK (files, images, parts)', () => {
    const file = {
      messages: [
        {
          role: 'user' as const,
          content: [
            { type: 'text' as const, text: 'Read this' },
            { type: 'file' as const, data: new Uint8Array([1, 2]), mediaType: 'application/pdf' },
          ],
        },
      ],
    }
    expect(textOnlyPrompt(file)).toBeNull()
  })
})
