import { describe, expect, it } from 'vitest'
import { judgeDifficulty, orderPool, type PoolModel, route, routingSaving } from './routing.ts'

const model = (
  modelId: string,
  grams: number | null,
  caps: Partial<PoolModel['capabilities']> = {},
): PoolModel => ({
  modelId,
  gramsPerToken: grams,
  capabilities: { vision: false, tools: false, contextTokens: 4_096, ...caps },
})
const own = model('local', 0.0001)
const pool = orderPool(own, [
  model('big', 0.01, { vision: true, tools: true, contextTokens: 200_000 }),
  model('vision', 0.001, { vision: true }),
  model('unpriced', null, { tools: true }),
])
const ask = (text: string, more: Partial<Parameters<typeof route>[1]> = {}) =>
  route(pool, { text, image: false, extraChars: 0, tools: false, largerThan: null, ...more })

describe('eco routing', () => {
  it('orders the pool by footprint, the eco model first and unpriced models last', () => {
    expect(pool.map((m) => m.modelId)).toEqual(['local', 'vision', 'big', 'unpriced'])
  })

  it('judges difficulty from length, code, math and language, without a model', () => {
    expect(judgeDifficulty('What is the capital of France?')).toEqual({ steps: 0, signals: [] })
    expect(judgeDifficulty('Fix this:\n```py\ndef f(): pass\n```').signals).toEqual(['code'])
    expect(judgeDifficulty('Solve 3x + 2 = 11 for x').signals).toEqual(['math'])
    expect(judgeDifficulty('Объясни, пожалуйста, как работает фотосинтез').signals).toEqual(['language'])
    expect(judgeDifficulty('word '.repeat(400)).signals).toEqual(['long message'])
  })

  it('capability first, then difficulty, each said in words', () => {
    expect(ask('hi')).toEqual({ index: 0, reason: 'short and simple: answered by the local model' })
    expect(ask('what is it?', { image: true })).toEqual({ index: 1, reason: 'image: sent to a vision model' })
    expect(ask('use a tool', { tools: true })).toEqual({
      index: 2,
      reason: 'tools: sent to a tool-capable model',
    })
    expect(ask('Solve 3x + 2 = 11')).toEqual({ index: 1, reason: 'math: sent to a larger model' })
    expect(ask('Prove it: $x^2$ in ```code```')).toEqual({
      index: 2,
      reason: 'code, math: sent to a larger model',
    })
    expect(ask('read this', { extraChars: 40_000 }).index).toBe(2)
  })

  it('asks one step up the pool, and stays at the top there', () => {
    expect(ask('hi', { largerThan: 'local' })).toEqual({ index: 1, reason: 'asked for a larger model' })
    expect(ask('hi', { largerThan: 'big' }).index).toBe(3)
    expect(ask('hi', { largerThan: 'unpriced' }).reason).toBe(
      'asked for a larger model: this is the largest one',
    )
  })

  it('counts the saving against the largest priced model of the pool', () => {
    const priced = orderPool(own, [model('big', 0.01)])
    expect(routingSaving(priced, own, 100)).toEqual({ against: 'Big', savedGrams: (0.01 - 0.0001) * 100 })
    expect(routingSaving(pool, own, 100)?.against).toBe('Big')
    expect(routingSaving(pool, model('unpriced', null), 100)).toBeNull()
  })
})
