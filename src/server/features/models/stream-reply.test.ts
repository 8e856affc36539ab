// streamReply hands on every kind of part a model streams, whichever way it took.
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { jsonSchema, tool } from 'ai'
import { describe, expect, it } from 'vitest'
import { fakeLanguageModel } from '../../../../tests/helpers/fake-model.ts'
import type { ResolvedModel } from './registry.ts'
import { type ReplyPart, streamReply } from './stream-reply.ts'

const usage = {
  inputTokens: { total: 7, noCache: 7, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 3, text: 3, reasoning: undefined },
}

function modelOf(parts: LanguageModelV3StreamPart[]): ResolvedModel {
  const model = fakeLanguageModel(async () => ({
    stream: new ReadableStream({
      start(c) {
        for (const p of parts) c.enqueue(p)
        c.close()
      },
    }),
  }))
  return {
    chatModel: 'gemini',
    provider: 'google',
    modelId: 'fake-1',
    model,
    historyBudgetTokens: 1000,
    impact: {} as ResolvedModel['impact'],
    capabilities: { vision: false, tools: true, contextTokens: 8_000 },
  }
}

async function collect(parts: AsyncIterable<ReplyPart>) {
  const out: ReplyPart[] = []
  for await (const p of parts) out.push(p)
  return out
}

const prompt = { system: 'sys', messages: [{ role: 'user' as const, content: 'hi' }] }

describe('streamReply', () => {
  it('passes reasoning, sources, tool calls and results, and the usage, when tools are offered', async () => {
    const model = modelOf([
      { type: 'stream-start', warnings: [] },
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'thinking' },
      { type: 'reasoning-end', id: 'r' },
      { type: 'source', sourceType: 'url', id: 's1', url: 'https://example.com/a', title: 'A' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: '{"q":"x"}' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hello' },
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    ])
    const lookup = tool({
      inputSchema: jsonSchema<{ q: string }>({ type: 'object', properties: { q: { type: 'string' } } }),
      execute: async ({ q }) => `found ${q}`,
    })
    const parts = await collect(
      streamReply(model, prompt, { signal: new AbortController().signal, tools: { lookup } }),
    )
    // Each step of this model calls the tool again: the steps stop at their limit, then one finish.
    const types = parts.map((p) => p.type)
    expect(types.slice(0, 5)).toEqual(['reasoning', 'source', 'tool-call', 'text', 'tool-result'])
    expect(types.filter((t) => t === 'tool-result')).toHaveLength(5)
    expect(types.filter((t) => t === 'finish')).toEqual(['finish'])
    expect(parts.find((p) => p.type === 'source')).toMatchObject({
      source: { url: 'https://example.com/a', title: 'A' },
    })
    expect(parts.find((p) => p.type === 'tool-result')).toMatchObject({ result: { output: 'found x' } })
    // The usage of all the steps together.
    expect(parts.at(-1)).toMatchObject({ type: 'finish', usage: { inputTokens: 35, outputTokens: 15 } })
  })

  it('hands text to onText without tools, and ends with the usage', async () => {
    const model = modelOf([
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hel' },
      { type: 'text-delta', id: 't', delta: 'lo' },
      { type: 'text-end', id: 't' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    ])
    let text = ''
    const parts = await collect(
      streamReply(model, prompt, { signal: new AbortController().signal, onText: (t) => (text += t) }),
    )
    expect(text).toBe('Hello')
    expect(parts).toEqual([{ type: 'finish', usage: { inputTokens: 7, outputTokens: 3 }, measured: null }])
  })

  it('ends a stopped call with an abort part', async () => {
    const stop = new AbortController()
    const model = resolvedSilent()
    const parts = streamReply(model, prompt, { signal: stop.signal })
    setTimeout(() => stop.abort(), 10)
    expect(await collect(parts)).toEqual([{ type: 'abort' }])
  })
})

/** A model that never answers until its call is aborted. */
function resolvedSilent(): ResolvedModel {
  const base = modelOf([])
  base.model = fakeLanguageModel(async ({ abortSignal }) => ({
    stream: new ReadableStream({
      start(c) {
        abortSignal?.addEventListener('abort', () => c.error(abortSignal.reason))
      },
    }),
  }))
  return base
}
