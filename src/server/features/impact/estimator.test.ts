import { describe, expect, it } from 'vitest'
import {
  co2ImpactSchema,
  impactCatalogResponse,
  impactEstimateQuery,
  impactEstimateResponse,
  type Range,
} from '#contract/impact.ts'
import {
  estimateImpact,
  estimateMessageImpact,
  type ImpactInput,
  ImpactInputError,
  impactCatalog,
  KNOWN_ZONES,
  midpoint,
  providerForModel,
  toCo2Impact,
} from './estimator.ts'

// Expected values marked "reference" were computed by a line-for-line Python transcription of
// EcoLogits' ecologits/impacts/llm.py (compute_llm_impacts with RangeValue PUE), not by this
// module, and are pinned to 10 significant digits.

function expectRange(actual: Range, [min, max]: [number, number], relative = 1e-9) {
  expect(Math.abs(actual.min - min)).toBeLessThanOrEqual(Math.abs(min) * relative)
  expect(Math.abs(actual.max - max)).toBeLessThanOrEqual(Math.abs(max) * relative)
}

const sig4 = (x: number) => Number(x.toPrecision(4))

function inputError(fn: () => unknown): ImpactInputError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(ImpactInputError)
    return error as ImpactInputError
  }
  throw new Error('expected an ImpactInputError')
}

describe('worked example of the methodology page', () => {
  const flashLite = estimateImpact({
    provider: 'google',
    model: 'gemini-2.5-flash-lite',
    outputTokens: 500,
    zone: 'WOR',
  })

  it('gives 0.04049 to 0.05151 Wh and 0.02240 to 0.02860 gCO2eq', () => {
    expect([sig4(flashLite.energyWh.min), sig4(flashLite.energyWh.max)]).toEqual([0.04049, 0.05151])
    expect([sig4(flashLite.gco2eq.min), sig4(flashLite.gco2eq.max)]).toEqual([0.0224, 0.0286])
  })

  it('matches the min run worked by hand, step by step', () => {
    // gemini-2.5-flash-lite is dense 8-28 B, so the min run has P_active = P_total = 8 B.
    // 1. Wh per token: alpha * exp(beta * 64) * 8 + gamma = 1.16653e-6 * 0.488120 * 8 + 4.05293e-5
    const e = 1.1665273170451914e-6 * Math.exp(-0.011205921025579175 * 64) * 8 + 4.052928146734005e-5
    expect(e).toBeCloseTo(4.5085e-5, 8)
    // 2. GPU energy, kWh: 500 tokens * e / 1000 = 2.2542e-5 kWh
    const gpuKwh = (500 * e) / 1000
    // 3. generation time: 500 * (6.78509e-4 * 8 + 3.11931e-4 * 64 + 1.94737e-2) = 500 * 0.0448654 = 22.433 s
    const seconds = 500 * (0.0006785088094353663 * 8 + 0.0003119310311688259 * 64 + 0.019473717579473387)
    expect(seconds).toBeCloseTo(22.4327, 3)
    // 4. GPUs: 1.2 * 8 B * 16 bit / 8 = 19.2 GB; ceil(19.2 / 80) = 1; 2^ceil(log2 1) = 1
    const gpus = 1
    // 5. server energy, kWh: 22.433 s / 3600 * 1.2 kW * (1 / 8) / 64 = 1.4605e-5 kWh
    const serverKwh = (((seconds / 3600) * 1.2 * gpus) / 8) * (1 / 64)
    // 6. request energy: 1.09 * (1.4605e-5 + 1 * 2.2542e-5) = 4.0490e-5 kWh = 0.040490 Wh
    const energyKwh = 1.09 * (serverKwh + gpus * gpuKwh)
    // 7. usage: 4.0490e-5 kWh * 0.47301 kg/kWh = 1.9152e-5 kg
    const usageKg = energyKwh * 0.47301
    // 8. embodied: 22.433 s * (1/8 * 5700 + 1 * 164) kg / (94,608,000 s * 64) = 22.433 * 876.5 / 6.0549e9
    const embodiedKg = (seconds * ((gpus / 8) * 5700 + gpus * 164)) / (94_608_000 * 64)
    // 9. total: (1.9152e-5 + 3.2473e-6) kg = 2.2400e-5 kg = 0.022400 g
    expect(flashLite.energyWh.min).toBeCloseTo(energyKwh * 1000, 12)
    expect(flashLite.usageGco2eq.min).toBeCloseTo(usageKg * 1000, 12)
    expect(flashLite.embodiedGco2eq.min).toBeCloseTo(embodiedKg * 1000, 12)
    expect(flashLite.gco2eq.min).toBeCloseTo((usageKg + embodiedKg) * 1000, 12)
    expect(flashLite.steps.generationSeconds.min).toBeCloseTo(seconds, 10)
    expect(flashLite.steps.gpuCount).toEqual({ min: 1, max: 1 })
  })

  it('echoes the normalized inputs', () => {
    expect(flashLite.inputs).toEqual({
      provider: 'google',
      model: 'gemini-2.5-flash-lite',
      outputTokens: 500,
      latencySeconds: null,
      zone: 'WOR',
      mix: 0.47301,
      zonePe: 2.5871,
      zoneWue: 3.908,
      pue: { min: 1.09, max: 1.09 },
      wue: { min: 0.999, max: 0.999 },
      totalParamsB: { min: 8, max: 28 },
      activeParamsB: { min: 8, max: 28 },
    })
    expect(flashLite.methodVersion).toBe('ecologits-0.9.1')
  })
})

describe('reference values', () => {
  it.each<{
    name: string
    input: ImpactInput
    energyWh: [number, number]
    gco2eq: [number, number]
    gpus: Range
  }>([
    {
      name: 'gpt-4o standard, 1 token',
      input: { provider: 'openai', model: 'gpt-4o', outputTokens: 1, zone: 'WOR' },
      energyWh: [0.002125349196, 0.00383379059],
      gco2eq: [0.001165800407, 0.002112203918],
      gpus: { min: 16, max: 16 },
    },
    {
      name: 'gpt-4o standard, 100 tokens',
      input: { provider: 'openai', model: 'gpt-4o', outputTokens: 100, zone: 'WOR' },
      energyWh: [0.2125349196, 0.383379059],
      gco2eq: [0.1165800407, 0.2112203918],
      gpus: { min: 16, max: 16 },
    },
    {
      name: 'gpt-4o standard, 1000 tokens',
      input: { provider: 'openai', model: 'gpt-4o', outputTokens: 1000, zone: 'WOR' },
      energyWh: [2.125349196, 3.83379059],
      gco2eq: [1.165800407, 2.112203918],
      gpus: { min: 16, max: 16 },
    },
    {
      // MoE: 2000 B total on 64 GPUs in both runs, active 200 B (min run) to 600 B (max run).
      name: 'gemini-2.5-pro MoE, 400 tokens, Google default zone USA',
      input: { provider: 'google', model: 'gemini-2.5-pro', outputTokens: 400 },
      energyWh: [7.490407114, 18.7764745],
      gco2eq: [3.521979095, 8.856522223],
      gpus: { min: 64, max: 64 },
    },
    {
      // Dense range: the GPU count follows P_total per run, 20 B fits 1 GPU, 70 B needs 4.
      name: 'gpt-3.5-turbo dense 20-70 B, 300 tokens, USA',
      input: { provider: 'openai', model: 'gpt-3.5-turbo', outputTokens: 300 },
      energyWh: [0.03111394938, 0.1972586979],
      gco2eq: [0.01423574032, 0.09075970889],
      gpus: { min: 1, max: 4 },
    },
    {
      // Anthropic's PUE range: 1.09 in the min run, 1.14 in the max run.
      name: 'custom MoE at anthropic, 250 tokens, USA',
      input: {
        provider: 'anthropic',
        model: { name: 'claude-like', totalB: 440, activeB: { min: 55, max: 220 } },
        outputTokens: 250,
      },
      energyWh: [0.5311262007, 1.316280096],
      gco2eq: [0.2481573768, 0.6141283006],
      gpus: { min: 16, max: 16 },
    },
    {
      name: 'our own 360M model, 200 tokens, France, PUE 1.0-1.56',
      input: {
        provider: 'self',
        model: { name: 'loris-eco', totalB: 0.36, activeB: 0.36 },
        outputTokens: 200,
        zone: 'FRA',
      },
      energyWh: [0.01331372476, 0.02076941063],
      gco2eq: [0.001737049204, 0.002066441405],
      gpus: { min: 1, max: 1 },
    },
  ])('$name', ({ input, energyWh, gco2eq, gpus }) => {
    const estimate = estimateImpact(input)
    expectRange(estimate.energyWh, energyWh)
    expectRange(estimate.gco2eq, gco2eq)
    expect(estimate.steps.gpuCount).toEqual(gpus)
    expect(estimate.gco2eq.min).toBeCloseTo(estimate.usageGco2eq.min + estimate.embodiedGco2eq.min, 15)
  })

  it('scales linearly with tokens when nothing caps the generation time', () => {
    const one = estimateImpact({ provider: 'openai', model: 'gpt-4o', outputTokens: 1 })
    const many = estimateImpact({ provider: 'openai', model: 'gpt-4o', outputTokens: 737 })
    expectRange(many.gco2eq, [one.gco2eq.min * 737, one.gco2eq.max * 737])
  })
})

describe('latency cap', () => {
  const base: ImpactInput = { provider: 'google', model: 'gemini-2.5-pro', outputTokens: 400 }
  const uncapped = estimateImpact(base)
  const capped = estimateImpact({ ...base, latencySeconds: 5 })

  it('caps the generation time at the measured latency (reference values)', () => {
    expect(capped.steps.generationSeconds).toEqual({ min: 5, max: 5 })
    expectRange(capped.energyWh, [4.535797424, 10.89136747])
    expectRange(capped.embodiedGco2eq, [0.04632272112, 0.04632272112])
  })

  it('lowers server energy and embodied emissions but not GPU energy', () => {
    expect(capped.steps.generationSeconds.max).toBeLessThan(uncapped.steps.generationSeconds.max)
    expect(capped.steps.serverEnergyWh.max).toBeLessThan(uncapped.steps.serverEnergyWh.max)
    expect(capped.embodiedGco2eq.max).toBeLessThan(uncapped.embodiedGco2eq.max)
    expect(capped.steps.energyPerGpuWh).toEqual(uncapped.steps.energyPerGpuWh)
    expect(capped.inputs.latencySeconds).toBe(5)
  })

  it('changes nothing when the measured latency exceeds the modelled time', () => {
    const slow = estimateImpact({ ...base, latencySeconds: 10_000 })
    expect(slow.gco2eq).toEqual(uncapped.gco2eq)
    expect(slow.steps.generationSeconds).toEqual(uncapped.steps.generationSeconds)
  })
})

describe('electricity zone', () => {
  const input: ImpactInput = { provider: 'openai', model: 'gpt-4o-mini', outputTokens: 800 }
  const usa = estimateImpact(input)
  const france = estimateImpact({ ...input, zone: 'fra' })

  it('defaults to the provider data-centre zone and accepts any case', () => {
    expect(usa.inputs.zone).toBe('USA')
    expect(france.inputs).toMatchObject({ zone: 'FRA', mix: 0.04418 })
  })

  it('changes only the usage part', () => {
    expect(france.energyWh).toEqual(usa.energyWh)
    expect(france.embodiedGco2eq).toEqual(usa.embodiedGco2eq)
    expect(france.usageGco2eq.min / usa.usageGco2eq.min).toBeCloseTo(0.04418 / 0.38355, 12)
    expect(france.usageGco2eq.max / usa.usageGco2eq.max).toBeCloseTo(0.04418 / 0.38355, 12)
  })

  it('offers all 50 zones of the EcoLogits mix table, world included', () => {
    expect(KNOWN_ZONES).toHaveLength(50)
    expect(KNOWN_ZONES).toEqual(expect.arrayContaining(['WOR', 'USA', 'FRA', 'SWE', 'ISL', 'TWN']))
  })
})

describe('actual, standard and saved', () => {
  it('compares with gpt-4o at OpenAI in the world mix, without the actual latency or zone', () => {
    const impact = estimateMessageImpact({
      provider: 'google',
      model: 'gemini-2.5-flash-lite',
      outputTokens: 500,
      latencySeconds: 3,
      zone: 'SWE',
    })
    expect(impact.standard).toEqual(
      estimateImpact({ provider: 'openai', model: 'gpt-4o', outputTokens: 500, zone: 'WOR' }),
    )
    expect(impact.standard.inputs.pue).toEqual({ min: 1.2, max: 1.2 })
    expect(impact.saved).toEqual({
      min: impact.standard.gco2eq.min - impact.actual.gco2eq.min,
      max: impact.standard.gco2eq.max - impact.actual.gco2eq.max,
    })
  })

  it('never reports a negative saving: gpt-4o in India against the world-mix standard', () => {
    const impact = estimateMessageImpact({
      provider: 'openai',
      model: 'gpt-4o',
      outputTokens: 600,
      zone: 'IND',
    })
    expect(impact.actual.gco2eq.min).toBeGreaterThan(impact.standard.gco2eq.min)
    expect(impact.saved).toEqual({ min: 0, max: 0 })
  })

  it('keeps min <= max when only the low run saves', () => {
    // Same 440 B and PUE as gpt-4o, active 10-132 B, in Japan (0.48232, a little above WOR 0.47301):
    // the min run (10 B) emits far less than gpt-4o's (44 B); the max run (132 B, like gpt-4o's)
    // emits a little more. Bound by bound that is a saving of (x, 0); as a range, 0 to x.
    const impact = estimateMessageImpact({
      provider: 'openai',
      model: { name: 'wide', totalB: 440, activeB: { min: 10, max: 132 } },
      outputTokens: 100,
      zone: 'JPN',
    })
    expect(impact.actual.gco2eq.max).toBeGreaterThan(impact.standard.gco2eq.max)
    expect(impact.saved).toEqual({ min: 0, max: impact.standard.gco2eq.min - impact.actual.gco2eq.min })
  })

  it('gives zero everywhere for zero tokens', () => {
    const impact = estimateMessageImpact({ provider: 'google', model: 'gemini-2.5-flash', outputTokens: 0 })
    for (const estimate of [impact.actual, impact.standard]) {
      for (const range of [
        estimate.energyWh,
        estimate.gco2eq,
        estimate.usageGco2eq,
        estimate.embodiedGco2eq,
      ]) {
        expect(range).toEqual({ min: 0, max: 0 })
      }
    }
    expect(impact.saved).toEqual({ min: 0, max: 0 })
  })

  it('stores grams with midpoints and the inputs to recompute later', () => {
    const impact = estimateMessageImpact({
      provider: 'google',
      model: 'gemini-2.5-flash-lite',
      outputTokens: 500,
      latencySeconds: 4.2,
    })
    const stored = co2ImpactSchema.parse(toCo2Impact(impact))
    expect(stored.actual).toEqual({ ...impact.actual.gco2eq, mid: midpoint(impact.actual.gco2eq) })
    expect(stored.inputs).toEqual({
      provider: 'google',
      model: 'gemini-2.5-flash-lite',
      outputTokens: 500,
      latencySeconds: 4.2,
      zone: 'USA',
      methodVersion: 'ecologits-0.9.1',
    })
    expect(toCo2Impact(impact, true).inputs.measured).toBe(true)
    expect(midpoint({ min: 1, max: 4 })).toBe(2.5)
  })
})

describe('bad input is an error that names the choices', () => {
  it.each<{ name: string; input: ImpactInput; field: ImpactInputError['field']; mentions: string[] }>([
    {
      name: 'unknown model',
      input: { provider: 'google', model: 'gemini-9-ultra', outputTokens: 10 },
      field: 'model',
      mentions: ['gemini-9-ultra', 'Closest known models: gemini-2.5-pro', '{ name, totalB, activeB }'],
    },
    {
      name: 'model of another provider',
      input: { provider: 'google', model: 'gpt-4o', outputTokens: 10 },
      field: 'model',
      mentions: ['served by openai, not google'],
    },
    {
      name: 'unknown model, suggesting the family',
      input: { provider: 'mistral', model: 'mistral-large', outputTokens: 10 },
      field: 'model',
      mentions: ['mistral-large-2411', 'mistral-large-latest', 'totalB'],
    },
    {
      name: 'self without parameter counts',
      input: { provider: 'self', model: 'loris-eco', outputTokens: 10 },
      field: 'model',
      mentions: ['0.36'],
    },
    {
      name: 'custom model with active above total',
      input: { provider: 'self', model: { name: 'odd', totalB: 1, activeB: 2 }, outputTokens: 10 },
      field: 'model',
      mentions: ['active within total'],
    },
    {
      name: 'unknown provider',
      input: { provider: 'acme' as ImpactInput['provider'], model: 'gpt-4o', outputTokens: 10 },
      field: 'provider',
      mentions: ['"acme"', 'anthropic, cohere, google, huggingface_hub, mistral, openai, self'],
    },
    {
      name: 'unknown zone',
      input: { provider: 'openai', model: 'gpt-4o', outputTokens: 10, zone: 'XXX' },
      field: 'zone',
      mentions: ['"XXX"', 'WOR', 'FRA', 'USA'],
    },
    {
      name: 'negative tokens',
      input: { provider: 'openai', model: 'gpt-4o', outputTokens: -1 },
      field: 'outputTokens',
      mentions: ['>= 0', '-1'],
    },
    {
      name: 'non-finite tokens',
      input: { provider: 'openai', model: 'gpt-4o', outputTokens: Number.NaN },
      field: 'outputTokens',
      mentions: ['NaN'],
    },
    {
      name: 'infinite tokens',
      input: { provider: 'openai', model: 'gpt-4o', outputTokens: Number.POSITIVE_INFINITY },
      field: 'outputTokens',
      mentions: ['Infinity'],
    },
    {
      name: 'fractional tokens',
      input: { provider: 'openai', model: 'gpt-4o', outputTokens: 1.5 },
      field: 'outputTokens',
      mentions: ['whole number'],
    },
    {
      name: 'zero latency',
      input: { provider: 'openai', model: 'gpt-4o', outputTokens: 10, latencySeconds: 0 },
      field: 'latencySeconds',
      mentions: ['> 0'],
    },
  ])('$name', ({ input, field, mentions }) => {
    const error = inputError(() => estimateImpact(input))
    expect(error.field).toBe(field)
    for (const text of mentions) expect(error.message).toContain(text)
  })

  it('fails the same way through estimateMessageImpact', () => {
    const error = inputError(() =>
      estimateMessageImpact({ provider: 'openai', model: 'gpt-9', outputTokens: 1 }),
    )
    expect(error.field).toBe('model')
  })

  it('finds the provider of a model named alone, as API model ids spell it', () => {
    expect(providerForModel('models/Gemini-2.5-Flash')).toBe('google')
    expect(providerForModel('gpt-4o-mini')).toBe('openai')
    expect(inputError(() => providerForModel('llama')).message).toContain('meta-llama/')
  })
})

describe('contract', () => {
  it('validates the estimate response and the catalog as the server builds them', () => {
    const impact = estimateMessageImpact({ provider: 'openai', model: 'gpt-4o-mini', outputTokens: 321 })
    expect(impactEstimateResponse.parse(impact)).toEqual(impact)
    const catalog = impactCatalogResponse.parse(impactCatalog())
    expect(catalog.models.map((m) => m.name)).toContain('gemini-2.5-flash-lite')
    expect(catalog.zones).toContainEqual({
      code: 'SWE',
      label: 'Sweden',
      kgCo2eqPerKwh: 0.03582,
      peMjPerKwh: 4.7301,
      wueLPerKwh: 6.0315,
    })
  })

  it('coerces the query string and rejects what the method cannot price', () => {
    expect(impactEstimateQuery.parse({ model: ' gpt-4o ', outputTokens: '500', zone: 'fra' })).toEqual({
      model: 'gpt-4o',
      outputTokens: 500,
      zone: 'FRA',
    })
    expect(
      impactEstimateQuery.parse({ model: 'gpt-4o', outputTokens: '0', latencySeconds: '2.5' }),
    ).toMatchObject({
      outputTokens: 0,
      latencySeconds: 2.5,
    })
    for (const bad of [
      { model: 'gpt-4o', outputTokens: '-1' },
      { model: 'gpt-4o', outputTokens: '1.5' },
      { model: 'gpt-4o', outputTokens: '1000001' },
      { model: 'gpt-4o', outputTokens: '10', latencySeconds: '0' },
      { model: 'gpt-4o', outputTokens: '10', zone: 'FR' },
      { model: '', outputTokens: '10' },
    ]) {
      expect(impactEstimateQuery.safeParse(bad).success).toBe(false)
    }
  })
})
