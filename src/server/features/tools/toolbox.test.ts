import type { LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { stepCountIs, streamText } from 'ai'
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEnv } from '#server/env.ts'
import { type SearchStandIn, startSearchStandIn } from '../../../../tests/stand-ins/search.ts'
import { linksIn, lookUpFirst, replyTools, SourceList, type Toolbox } from './toolbox.ts'
import { createWebSearch } from './web-search.ts'

const usage = {
  inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
}
const finish = (reason: 'tool-calls' | 'stop'): LanguageModelV3StreamPart => ({
  type: 'finish',
  finishReason: { unified: reason, raw: reason },
  usage,
})

/** A model that asks for one tool call on its first step and writes `answer` on its second. */
function toolCallingModel(toolName: string, input: unknown, answer: string) {
  let step = 0
  const prompts: unknown[] = []
  const model = new MockLanguageModelV3({
    doStream: async (options) => {
      prompts.push(options.prompt)
      step += 1
      const chunks: LanguageModelV3StreamPart[] =
        step === 1
          ? [
              { type: 'tool-call', toolCallId: 'call-1', toolName, input: JSON.stringify(input) },
              finish('tool-calls'),
            ]
          : [
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: answer },
              { type: 'text-end', id: 't' },
              finish('stop'),
            ]
      return { stream: simulateReadableStream({ chunks }) }
    },
  })
  return { model, prompts }
}

describe('the reply toolbox', () => {
  let standIn: SearchStandIn
  let box: Toolbox
  const pages = new Map([
    ['https://loris.example/care', { title: 'Caring for lorises', text: 'Lorises sleep by day.' }],
  ])
  beforeAll(async () => {
    standIn = await startSearchStandIn([
      { url: 'https://news.example/1', title: 'Loris news', snippet: 'A new loris species was named.' },
    ])
    box = {
      search: createWebSearch(parseEnv({ SEARXNG_URL: standIn.url })),
      readPage: async (link) => {
        const page = pages.get(link)
        if (!page) throw new Error('unknown page')
        return { url: link, ...page }
      },
    }
  })
  afterAll(() => standIn.close())

  it('lets a tool-calling model search, and collects the results as numbered sources', async () => {
    const { model, prompts } = toolCallingModel('web_search', { query: 'new loris species 2026' }, 'See [1].')
    const sources = new SourceList()
    const result = streamText({
      model,
      prompt: 'Any loris news?',
      tools: replyTools(box, sources, { webSearch: true }),
      stopWhen: stepCountIs(5),
    })
    expect(await result.text).toBe('See [1].')
    expect(standIn.queries.at(-1)?.query).toBe('new loris species 2026')
    expect(sources.items).toEqual([
      { url: 'https://news.example/1', title: 'Loris news', snippet: 'A new loris species was named.' },
    ])
    expect(JSON.stringify(prompts[1])).toContain('[1] Loris news (https://news.example/1)')
  })

  it('offers no search tool when search is off or not configured', () => {
    expect(Object.keys(replyTools(box, new SourceList(), { webSearch: false }))).toEqual(['read_link'])
    expect(Object.keys(replyTools({ ...box, search: null }, new SourceList(), { webSearch: true }))).toEqual([
      'read_link',
    ])
  })

  it('searches first and reads the links of the message for a model without tools', async () => {
    const sources = new SourceList()
    const errors: unknown[] = []
    const context = await lookUpFirst(box, sources, 'What does https://loris.example/care say? And news?', {
      webSearch: true,
      onError: (err) => errors.push(err),
    })
    expect(context).toContain('[1] Caring for lorises (https://loris.example/care)\nLorises sleep by day.')
    expect(context).toContain('[2] Loris news (https://news.example/1)')
    expect(sources.items.map((s) => s.url)).toEqual(['https://loris.example/care', 'https://news.example/1'])
    expect(errors).toEqual([])
    expect(
      await lookUpFirst(box, new SourceList(), 'hello', { webSearch: false, onError: () => {} }),
    ).toBeNull()
  })

  it('finds at most three links, without the sentence around them', () => {
    expect(
      linksIn('See (https://a.example/x). Then https://b.example/y, https://c.example https://d.example'),
    ).toEqual(['https://a.example/x', 'https://b.example/y', 'https://c.example'])
  })
})
