import { describe, expect, it } from 'vitest'
import { co2ImpactSchema } from '#contract/impact.ts'
import { parseEnv } from '#server/env.ts'
import { estimateMessageImpact, midpoint } from './estimator.ts'
import {
  catalogueName,
  impactSettings,
  measuredMessageImpact,
  messageImpact,
  type ReplyForImpact,
} from './message-impact.ts'

const reply = (over: Partial<ReplyForImpact> = {}): ReplyForImpact => ({
  provider: 'google',
  modelId: 'gemini-2.5-flash-lite',
  outputTokens: 500,
  latencyMs: 4200,
  replyChars: 2000,
  zone: null,
  selfParamsB: null,
  ...over,
})

describe('messageImpact', () => {
  it("stores grams with midpoints and the inputs used, in the provider's zone by default", () => {
    const stored = co2ImpactSchema.parse(messageImpact(reply()))
    const expected = estimateMessageImpact({
      provider: 'google',
      model: 'gemini-2.5-flash-lite',
      outputTokens: 500,
      latencySeconds: 4.2,
    })
    expect(stored.actual).toEqual({ ...expected.actual.gco2eq, mid: midpoint(expected.actual.gco2eq) })
    expect(stored.saved.mid).toBe(midpoint(expected.saved))
    expect(stored.inputs).toEqual({
      provider: 'google',
      model: 'gemini-2.5-flash-lite',
      outputTokens: 500,
      latencySeconds: 4.2,
      zone: 'USA',
      methodVersion: 'ecologits-0.9.1',
    })
  })

  it('uses the deployment zone (LORIS_ZONE) when set', () => {
    const settings = impactSettings(parseEnv({ LORIS_ZONE: 'FRA', ECO_MODEL_PARAMS_B: '0.36' }))
    expect(settings).toEqual({ zone: 'FRA', selfParamsB: 0.36 })
    const inFrance = messageImpact(reply(settings))
    const inUsa = messageImpact(reply())
    expect(inFrance?.inputs.zone).toBe('FRA')
    expect(inFrance!.actual.mid).toBeLessThan(inUsa!.actual.mid)
    // The standard reference stays gpt-4o in the world mix, wherever we run.
    expect(inFrance?.standard).toEqual(inUsa?.standard)
  })

  it('estimates our own eco model at its real size under provider self', () => {
    const stored = messageImpact(reply({ provider: 'self', modelId: 'qwen2.5:0.5b', selfParamsB: 0.5 }))
    expect(stored?.inputs).toMatchObject({ provider: 'self', model: 'qwen2.5:0.5b', zone: 'WOR' })
    const expected = estimateMessageImpact({
      provider: 'self',
      model: { name: 'qwen2.5:0.5b', totalB: 0.5, activeB: 0.5 },
      outputTokens: 500,
      latencySeconds: 4.2,
    })
    expect(stored?.actual.max).toBe(expected.actual.gco2eq.max)
    expect(stored!.saved.min).toBeGreaterThan(0)
    // Without its size there is no honest estimate.
    expect(messageImpact(reply({ provider: 'self', modelId: 'qwen2.5:0.5b' }))).toBeNull()
  })

  it('falls back to reply characters / 4 when the provider reported no tokens, and says so', () => {
    const stored = messageImpact(reply({ outputTokens: null, replyChars: 1001 }))
    expect(stored?.inputs).toMatchObject({ outputTokens: 251, outputTokensEstimated: true })
    expect(messageImpact(reply({ outputTokens: 0, replyChars: 40 }))?.inputs).toMatchObject({
      outputTokens: 10,
      outputTokensEstimated: true,
    })
    expect(messageImpact(reply())?.inputs.outputTokensEstimated).toBeUndefined()
  })

  it('has no latency cap when none was measured', () => {
    expect(messageImpact(reply({ latencyMs: 0 }))?.inputs.latencySeconds).toBeNull()
    expect(messageImpact(reply({ latencyMs: null }))?.inputs.latencySeconds).toBeNull()
  })

  it('gives null, never a made-up number, for models the method cannot price', () => {
    expect(messageImpact(reply({ modelId: 'gemini-9-ultra' }))).toBeNull()
    expect(messageImpact(reply({ provider: 'openai', modelId: 'gemini-2.5-pro' }))).toBeNull()
    expect(messageImpact(reply({ provider: 'acme' }))).toBeNull()
  })
})

describe('catalogueName', () => {
  it.each([
    // Snapshots EcoLogits 0.9.1 lists under their own name keep it.
    ['gemini-2.0-flash-001', 'gemini-2.0-flash-001'],
    ['models/gemini-2.5-pro', 'gemini-2.5-pro'],
    ['gemini-2.5-flash-lite-preview-06-17', 'gemini-2.5-flash-lite-preview-06-17'],
    ['gpt-4o-2024-08-06', 'gpt-4o-2024-08-06'],
    ['gpt-3.5-turbo-0125', 'gpt-3.5-turbo-0125'],
    // Others drop their suffix down to the catalogued family.
    ['gemini-2.5-pro-preview-99-99', 'gemini-2.5-pro'],
    ['gpt-4o-mini-2099-01-01', 'gpt-4o-mini'],
    ['GPT-4o', 'gpt-4o'],
    // An alias answers with the model it names.
    ['claude-sonnet-4-0', 'claude-sonnet-4-20250514'],
  ])('reads %s as %s', (id, name) => {
    expect(catalogueName(id)).toBe(name)
  })

  it('does not guess across model families', () => {
    expect(catalogueName('gpt-4.7')).toBeNull()
    expect(catalogueName('gemini-2.5-flash-8b')).toBeNull()
  })
})

describe('measuredMessageImpact', () => {
  it('turns joules metered on our CPU into energy, water and CO2 with the self-hosted PUE and WUE', () => {
    // 3,600 J = 1 Wh = 0.001 kWh; world mix 0.47301 kgCO2eq/kWh and 3.908 L/kWh;
    // self-hosted PUE 1.0 to 1.56, on-site WUE 0 to 1.8 L/kWh.
    const stored = co2ImpactSchema.parse(
      measuredMessageImpact({
        modelId: 'stories260K',
        outputTokens: 100,
        latencyMs: 500,
        zone: 'WOR',
        energy: { joules: 3600, method: 'estimated' },
      }),
    )
    expect(stored.energyWh?.min).toBeCloseTo(1, 9)
    expect(stored.energyWh?.max).toBeCloseTo(1.56, 9)
    expect(stored.waterL?.min).toBeCloseTo(0.001 * (0 + 1.0 * 3.908), 12)
    expect(stored.waterL?.max).toBeCloseTo(0.001 * (1.8 + 1.56 * 3.908), 12)
    expect(stored.actual.min).toBeCloseTo(0.001 * 1.0 * 0.47301 * 1000, 9)
    expect(stored.actual.max).toBeCloseTo(0.001 * 1.56 * 0.47301 * 1000, 9)
    expect(stored.inputs).toMatchObject({ measured: true, energyMethod: 'estimated', energyKwh: 0.001 })
  })
})
