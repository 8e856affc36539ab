import { describe, expect, it } from 'vitest'
import type { ModelsResponse } from '#contract/models.ts'
import { estimateFootprint, expectedReplyTokens } from './footprint-estimate.ts'

const model = (id: string, name: string, gramsPerToken: number | null) => ({
  id,
  name,
  family: 'claude' as const,
  provider: 'anthropic',
  capabilities: { vision: true, tools: true, contextTokens: 200_000 },
  gramsPerToken,
  typicalReplyGrams: gramsPerToken === null ? null : gramsPerToken * 400,
  eco: false,
})
const data: ModelsResponse = {
  models: [
    model('sonnet', 'Claude Sonnet', 0.01),
    model('haiku', 'Claude Haiku', 0.002),
    model('x', 'X', null),
  ],
  modes: [
    { mode: 'gemini', modelId: 'gemini-2.5-pro', gramsPerToken: 0.006 },
    { mode: 'loris', modelId: 'eco.gguf', gramsPerToken: 0.0001 },
    { mode: 'chatgpt', modelId: null, gramsPerToken: null },
  ],
}

describe('the pre-send footprint estimate', () => {
  it('grows with the prompt and the history, up to a cap', () => {
    expect(expectedReplyTokens(0, 0)).toBe(150)
    expect(expectedReplyTokens(400, 0)).toBe(200)
    expect(expectedReplyTokens(0, 4_000)).toBe(250)
    expect(expectedReplyTokens(1_000_000, 0)).toBe(2_000)
  })

  it('prices the chosen mode or model, and suggests the least-emitting choice at half or less', () => {
    const sonnet = estimateFootprint(data, { mode: 'gemini', model: 'sonnet' }, 400, 0)
    expect(sonnet?.grams).toBeCloseTo(0.01 * 200)
    expect(sonnet?.suggestion).toMatchObject({ model: null, mode: 'loris', name: 'Loris eco' })
    const eco = estimateFootprint(data, { mode: 'loris', model: null }, 400, 0)
    expect(eco?.suggestion).toBeNull()
    const gemini = estimateFootprint(data, { mode: 'gemini', model: null }, 0, 0)
    expect(gemini?.grams).toBeCloseTo(0.006 * 150)
  })

  it('says nothing without a price', () => {
    expect(estimateFootprint(data, { mode: 'chatgpt', model: null }, 10, 0)).toBeNull()
    expect(estimateFootprint(data, { mode: 'gemini', model: 'x' }, 10, 0)).toBeNull()
    expect(estimateFootprint(undefined, { mode: 'gemini', model: null }, 10, 0)).toBeNull()
  })
})
