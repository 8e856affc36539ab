import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { impactEstimateResponse, impactModelsResponse, type Range } from '#contract/impact.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { closestNames, editDistance, infixDistance } from './closest-names.ts'
import { ECOLOGITS_DATA, parseCatalogue, parseMixesCsv } from './ecologits-data.ts'
import { ELECTRICITY_MIXES } from './electricity-mixes.ts'
import { estimateImpact, findModel, KNOWN_MODELS, PROVIDERS, providerForRequest } from './estimator.ts'

// The EcoLogits 0.9.1 catalogue as data: every model and alias priced, primary energy and water
// exact to the method, and the endpoints that expose them.

function expectRange(actual: Range, [min, max]: [number, number], relative = 1e-12) {
  expect(Math.abs(actual.min - min)).toBeLessThanOrEqual(Math.abs(min) * relative)
  expect(Math.abs(actual.max - max)).toBeLessThanOrEqual(Math.abs(max) * relative)
}

describe('the data files', () => {
  it('hold the 361 models, 9 aliases, 6 providers and 50 zones of the release', () => {
    expect(ECOLOGITS_DATA.catalogue.models).toHaveLength(361)
    expect(ECOLOGITS_DATA.catalogue.aliases).toHaveLength(9)
    expect(Object.keys(ECOLOGITS_DATA.catalogue.providers)).toHaveLength(6)
    expect(ECOLOGITS_DATA.mixes).toHaveLength(50)
    expect(KNOWN_MODELS).toHaveLength(361)
  })

  it('keep the figures of the methodology page for the models Loris calls', () => {
    const figures = (name: string) => {
      const m = findModel(name)!
      return [m.provider, m.architecture, m.totalB, m.activeB]
    }
    expect(figures('gemini-2.5-pro')).toEqual([
      'google',
      'moe',
      { min: 2000, max: 2000 },
      { min: 200, max: 600 },
    ])
    expect(figures('gpt-4o')).toEqual(['openai', 'moe', { min: 440, max: 440 }, { min: 44, max: 132 }])
    expect(figures('gemini-2.5-flash-lite')).toEqual([
      'google',
      'dense',
      { min: 8, max: 28 },
      { min: 8, max: 28 },
    ])
    expect(figures('gpt-3.5-turbo')).toEqual(['openai', 'dense', { min: 20, max: 70 }, { min: 20, max: 70 }])
    expect(PROVIDERS.anthropic.pue).toEqual({ min: 1.09, max: 1.14 })
    expect(PROVIDERS.mistral).toMatchObject({
      zone: 'SWE',
      pue: { min: 1.16, max: 1.16 },
      wue: { min: 0.09, max: 0.09 },
    })
    expect(PROVIDERS.openai.wue).toEqual({ min: 0.569, max: 0.569 })
    expect(ELECTRICITY_MIXES.SWE).toEqual({
      label: 'Sweden',
      kgCo2eqPerKwh: 0.03582,
      peMjPerKwh: 4.7301,
      wueLPerKwh: 6.0315,
    })
  })

  it('refuse a file that does not fit, naming the problem', () => {
    const raw = JSON.parse(
      readFileSync(new URL('./dataset/ecologits-0.9.1/catalogue.json', import.meta.url), 'utf8'),
    ) as { models: Array<Record<string, unknown>>; aliases: Array<Record<string, unknown>> }
    const broken = structuredClone(raw)
    broken.models[0] = { ...broken.models[0], totalParamsB: { min: 'eight', max: 8 } }
    expect(() => parseCatalogue(broken)).toThrow(/catalogue\.json does not fit/)
    const twice = structuredClone(raw)
    twice.models.push({ ...twice.models[1]! })
    expect(() => parseCatalogue(twice)).toThrow(/appears twice/)
    const newWarning = structuredClone(raw)
    newWarning.models[0] = { ...newWarning.models[0], warnings: ['model-arch-unknown'] }
    expect(() => parseCatalogue(newWarning)).toThrow(/does not fit/)
    const orphan = structuredClone(raw)
    orphan.aliases.push({ provider: 'openai', alias: 'gpt-404', name: 'gpt-four-oh-four' })
    expect(() => parseCatalogue(orphan)).toThrow(/no model gpt-404/)

    expect(() => parseMixesCsv('name,adpe,pe,gwp\nWOR,1,2,3')).toThrow(/expected columns/)
    expect(() => parseMixesCsv('name,adpe,pe,gwp,wue\nWOR,1,2,x,4')).toThrow(/line 2/)
    expect(() => parseMixesCsv('name,adpe,pe,gwp,wue\nFRA,1,2,3,4')).toThrow(/WOR/)
  })
})

describe('primary energy and water, checked by hand', () => {
  // Values from a Python transcription of the methodology page's steps 1 to 6 (not this module),
  // then PE = E x pe_zone (MJ) and water = E x (WUE_provider + PUE x WUE_zone) (litres).
  it('a dense model with fixed figures: mistral-large-2411 at Mistral, Sweden, 100 tokens', () => {
    // 123 B dense: 4 GPUs; E = 1.16 x (Es + 4 Eg) = 0.08842737103587892 Wh.
    const e = estimateImpact({ provider: 'mistral', model: 'mistral-large-2411', outputTokens: 100 })
    expect(e.inputs.zone).toBe('SWE')
    expectRange(e.energyWh, [0.08842737103587892, 0.08842737103587892])
    // 0.00008842737 kWh x 4.7301 MJ/kWh
    expectRange(e.primaryEnergyMj, [0.00041827030773681085, 0.00041827030773681085])
    // 0.00008842737 kWh x (0.09 + 1.16 x 6.0315) L/kWh
    expectRange(e.waterL, [0.0006266441019405973, 0.0006266441019405973])
    expect(e.steps.gpuCount).toEqual({ min: 4, max: 4 })
  })

  it('a MoE with every range: claude-sonnet-4 at Anthropic (PUE 1.09-1.14, WUE 0.13-0.999), USA, 250 tokens', () => {
    // Active 44-132 B for the energy, total 440 B for the GPU count (16 either way).
    const e = estimateImpact({ provider: 'anthropic', model: 'claude-sonnet-4-0', outputTokens: 250 })
    expect(e.inputs.model).toBe('claude-sonnet-4-20250514')
    expect(e.steps.gpuCount).toEqual({ min: 16, max: 16 })
    expectRange(e.energyWh, [0.48263137988877497, 0.9105252650819213])
    expectRange(e.primaryEnergyMj, [0.0046759258609144075, 0.008821532978219686])
    expectRange(e.waterL, [0.0017104403013806395, 0.004160730788166756])
    expect(e.warnings).toEqual(['model-arch-not-released'])
  })

  it('follows the formulas for any zone: E x pe, E x (WUE + PUE x WUE_zone)', () => {
    const e = estimateImpact({ provider: 'openai', model: 'gpt-4o', outputTokens: 500, zone: 'fra' })
    const kwh = { min: e.energyWh.min / 1000, max: e.energyWh.max / 1000 }
    expectRange(e.primaryEnergyMj, [kwh.min * 9.3135, kwh.max * 9.3135])
    expectRange(e.waterL, [kwh.min * (0.569 + 1.2 * 3.6737), kwh.max * (0.569 + 1.2 * 3.6737)])
  })

  it('uses active parameters for energy and total parameters for the GPU count (MoE)', () => {
    const moe = estimateImpact({ provider: 'openai', model: 'gpt-4o', outputTokens: 100 })
    const asDense = estimateImpact({
      provider: 'openai',
      model: { name: 'dense-44-132', totalB: { min: 44, max: 132 }, activeB: { min: 44, max: 132 } },
      outputTokens: 100,
    })
    // Same active parameters: the same GPU energy per GPU; 440 B total needs more GPUs.
    expectRange(moe.steps.energyPerGpuWh, [
      asDense.steps.energyPerGpuWh.min,
      asDense.steps.energyPerGpuWh.max,
    ])
    expect(moe.steps.gpuCount).toEqual({ min: 16, max: 16 })
    expect(asDense.steps.gpuCount).toEqual({ min: 2, max: 4 })
  })
})

describe('names', () => {
  it('finds every model and alias by name alone, in any case', () => {
    expect(findModel('gpt-35-turbo')?.name).toBe('gpt-3.5-turbo')
    expect(findModel('claude-opus-4-1')?.name).toBe('claude-opus-4-1-20250805')
    expect(findModel('META-LLAMA/Meta-Llama-3.1-8B')?.name).toBe('meta-llama/Meta-Llama-3.1-8B')
    expect(findModel('gpt-4o')?.aliases).toEqual([])
    expect(findModel('gpt-3.5-turbo')?.aliases).toEqual(['gpt-35-turbo'])
  })

  it('checks a provider when one is named, in either spelling', () => {
    expect(providerForRequest('gemini-2.5-pro', undefined)).toBe('google')
    expect(providerForRequest('gemini-2.5-pro', 'google_genai')).toBe('google')
    expect(providerForRequest('mistral-small-latest', 'mistralai')).toBe('mistral')
    expect(() => providerForRequest('gpt-4o', 'anthropic')).toThrow(/served by openai, not anthropic/)
    expect(() => providerForRequest('gpt-4o', 'acme')).toThrow(/Unknown provider "acme"/)
  })

  it('suggests the nearest names, whole or inside a longer one', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3)
    expect(infixDistance('llama', 'meta-llama/x')).toBe(0)
    expect(closestNames('gpt-4o-mni', ['gpt-4o', 'gpt-4o-mini', 'o1'], 2)).toEqual(['gpt-4o-mini', 'gpt-4o'])
    expect(closestNames('claude sonnet', ['claude-sonnet-4-0', 'gpt-5', 'claude-3-haiku'], 1)).toEqual([
      'claude-sonnet-4-0',
    ])
  })
})

describe('GET /api/impact/estimate and /api/impact/models', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(() => t.close())

  // A fresh address per call: the walk below makes hundreds of requests.
  let n = 0
  const get = (path: string, headers: Record<string, string> = {}) =>
    t.request(path, {
      headers: { 'x-forwarded-for': `198.51.${Math.floor(n / 200)}.${n++ % 200}`, ...headers },
    })

  it('answers every catalogue model and alias with finite, positive figures', async () => {
    const names = KNOWN_MODELS.flatMap((m) => [m.name, ...m.aliases])
    expect(names).toHaveLength(370)
    for (const name of names) {
      const res = await get(`/api/impact/estimate?model=${encodeURIComponent(name)}&outputTokens=300`)
      expect(res.status, name).toBe(200)
      const { actual } = impactEstimateResponse.parse(await res.json())
      for (const r of [actual.energyWh, actual.gco2eq, actual.primaryEnergyMj, actual.waterL]) {
        for (const x of [r.min, r.max]) {
          expect(Number.isFinite(x) && x > 0, `${name}: ${JSON.stringify(r)}`).toBe(true)
        }
      }
      expect(actual.inputs.model).toBe(findModel(name)!.name)
    }
  }, 120_000)

  it('checks provider= when given, and suggests names for an unknown model', async () => {
    const ok = await get('/api/impact/estimate?model=mistral-large-latest&provider=mistralai&outputTokens=10')
    expect(ok.status).toBe(200)
    const wrong = await get('/api/impact/estimate?model=mistral-large-latest&provider=openai&outputTokens=10')
    expect(wrong.status).toBe(400)
    expect(((await wrong.json()) as { message: string }).message).toContain('served by mistral, not openai')
    const typo = await get('/api/impact/estimate?model=claude-sonet-4-5&outputTokens=10')
    expect(typo.status).toBe(400)
    expect(((await typo.json()) as { message: string }).message).toMatch(
      /Closest known models: claude-sonnet-4-0, claude-sonnet-4-5-20250929/,
    )
    const long = await get(`/api/impact/estimate?model=${'a'.repeat(121)}&outputTokens=10`)
    expect(long.status).toBe(400)
  })

  it('lists the catalogue, cacheable, with a validator that answers 304', async () => {
    const res = await get('/api/impact/models')
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toMatch(/max-age=\d+/)
    const etag = res.headers.get('etag')
    expect(etag).toMatch(/^"[\w-]+"$/)
    const body = impactModelsResponse.parse(await res.json())
    expect(body.dataVersion).toBe('0.9.1')
    expect(body.models).toHaveLength(361)
    expect(body.models.find((m) => m.name === 'gpt-3.5-turbo')).toMatchObject({
      provider: 'openai',
      warnings: ['model-arch-not-released'],
      aliases: ['gpt-35-turbo'],
    })
    expect(body.providers.map((p) => p.id).sort()).toEqual([
      'anthropic',
      'cohere',
      'google',
      'huggingface_hub',
      'mistral',
      'openai',
    ])
    const again = await get('/api/impact/models', { 'If-None-Match': `W/${etag}, "other"` })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    const stale = await get('/api/impact/models', { 'If-None-Match': '"other"' })
    expect(stale.status).toBe(200)
  })
})
