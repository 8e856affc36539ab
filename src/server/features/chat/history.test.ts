import { describe, expect, it } from 'vitest'
import { buildPrompt, currentTurn, estimateTokens, fitHistory, type HistoryExchange } from './history.ts'

const ex = (content: string, response: string, status: HistoryExchange['status'] = 'complete') =>
  ({ content, response, status, mediaType: null }) satisfies HistoryExchange

describe('fitHistory', () => {
  it('keeps whole exchanges, oldest first, newest preferred when the budget is tight', () => {
    const history = [ex('one', 'a'.repeat(400)), ex('two', 'b'), ex('three', 'c')]
    const all = fitHistory(history, 10_000)
    expect(all.map((m) => m.content)).toEqual(['one', 'a'.repeat(400), 'two', 'b', 'three', 'c'])
    const budget = estimateTokens('two') + estimateTokens('b') + estimateTokens('three') + estimateTokens('c')
    expect(fitHistory(history, budget).map((m) => m.content)).toEqual(['two', 'b', 'three', 'c'])
    expect(fitHistory(history, 1)).toEqual([])
  })

  it('stops at the first exchange that does not fit, so the kept history is contiguous', () => {
    const history = [ex('small', 'x'), ex('huge', 'y'.repeat(4000)), ex('last', 'z')]
    expect(fitHistory(history, 100).map((m) => m.content)).toEqual(['last', 'z'])
  })

  it('skips exchanges without a reply', () => {
    const history = [
      ex('failed', '', 'failed'),
      ex('cut', 'partial', 'interrupted'),
      ex('live', 'so far', 'streaming'),
    ]
    expect(fitHistory(history, 10_000).map((m) => m.content)).toEqual(['cut', 'partial'])
  })

  it('notes earlier attachments in words', () => {
    const [user] = fitHistory([{ ...ex('look', 'nice'), mediaType: 'image' }], 1000)
    expect(user?.content).toBe('[The user shared an image]\nlook')
  })
})

describe('currentTurn', () => {
  it('is plain text without an attachment', () => {
    expect(currentTurn('hi')).toEqual({ role: 'user', content: 'hi' })
  })

  it('sends an image part then the text', () => {
    const data = new Uint8Array([1, 2, 3])
    const turn = currentTurn('what is this?', { kind: 'image', data, mediaType: 'image/png' })
    expect(turn.content).toEqual([
      { type: 'image', image: data, mediaType: 'image/png' },
      { type: 'text', text: 'what is this?' },
    ])
  })

  it('sends extracted document text instead of bytes', () => {
    const turn = currentTurn('', {
      kind: 'file',
      data: new Uint8Array(),
      mediaType: 'application/vnd.ms-excel',
      filename: 'sheet.xls',
      extractedText: 'a\tb',
    })
    expect(turn.content).toEqual([{ type: 'text', text: 'Attached sheet.xls:\na\tb' }])
  })
})

it('buildPrompt always carries the system prompt and ends with the new message', () => {
  const prompt = buildPrompt([ex('q', 'a')], { content: 'next' }, 1000)
  expect(prompt.system).toMatch(/Loris/)
  expect(prompt.messages.at(-1)).toEqual({ role: 'user', content: 'next' })
  expect(prompt.messages).toHaveLength(3)
})
