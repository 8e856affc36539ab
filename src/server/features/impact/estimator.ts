import type {
  Co2Impact,
  ImpactCatalogResponse,
  ImpactEstimate,
  ImpactEstimateResponse,
  ImpactModelsResponse,
  ProviderId,
  Range,
} from '#contract/impact.ts'
import { ECOLOGITS_DATA_VERSION, IMPACT_METHOD_VERSION } from '#contract/impact.ts'
import { ELECTRICITY_MIXES } from './electricity-mixes.ts'
import {
  type CustomModel,
  checkLatency,
  checkTokens,
  resolveModel,
  resolveProvider,
  resolveZone,
} from './estimator-inputs.ts'
import { ECOLOGITS, KNOWN_MODELS, type ModelProfile, PROVIDERS, STANDARD } from './methodology-data.ts'

// The CO2 of one LLM reply by EcoLogits 0.9.1's inference method (ecologits/impacts/llm.py),
// step by step as in shared/impact-methodology.md. Pure: no I/O, no clock, no randomness.
// Input checking lives in estimator-inputs.ts.

export type { CustomModel, ImpactInputField } from './estimator-inputs.ts'
export {
  findModel,
  ImpactInputError,
  KNOWN_ZONES,
  providerForModel,
  providerForRequest,
  suggestModels,
} from './estimator-inputs.ts'
export type { ImpactEstimate, ProviderId, Range }
export { KNOWN_MODELS, PROVIDERS }

export interface ImpactInput {
  provider: ProviderId
  model: string | CustomModel
  /** Generated tokens, thinking included; input tokens do not enter the method. */
  outputTokens: number
  /** Measured generation time; caps the modelled one. Absent: no cap. */
  latencySeconds?: number | null
  /** ISO 3166 alpha-3 or WOR; absent: the provider's data-centre zone. */
  zone?: string | null
}

export type MessageImpact = ImpactEstimateResponse

export function midpoint(r: Range): number {
  return (r.min + r.max) / 2
}

export function estimateImpact(input: ImpactInput): ImpactEstimate {
  const provider = resolveProvider(input.provider)
  const model = resolveModel(provider, input.model)
  const zone = resolveZone(input.zone, provider.zone)
  const outputTokens = checkTokens(input.outputTokens)
  const latencySeconds = checkLatency(input.latencySeconds)

  // The min run takes every lower bound (active and total parameters, PUE), the max run every
  // upper bound, exactly as llm.py compute_llm_impacts pairs them.
  // The WUE range pairs the same way as the PUE (EcoLogits' RangeValue arithmetic).
  const common = {
    outputTokens,
    latencySeconds,
    mix: zone.kgCo2eqPerKwh,
    zonePe: zone.peMjPerKwh,
    zoneWue: zone.wueLPerKwh,
  }
  const low = run({
    ...common,
    activeB: model.activeB.min,
    totalB: model.totalB.min,
    pue: provider.pue.min,
    wue: provider.wue.min,
  })
  const high = run({
    ...common,
    activeB: model.activeB.max,
    totalB: model.totalB.max,
    pue: provider.pue.max,
    wue: provider.wue.max,
  })
  const span = (pick: (r: Run) => number, scale = 1): Range => ({
    min: pick(low) * scale,
    max: pick(high) * scale,
  })

  return {
    energyWh: span((r) => r.energyKwh, 1000),
    primaryEnergyMj: span((r) => r.primaryEnergyMj),
    waterL: span((r) => r.waterL),
    gco2eq: span((r) => r.usageKg + r.embodiedKg, 1000),
    usageGco2eq: span((r) => r.usageKg, 1000),
    embodiedGco2eq: span((r) => r.embodiedKg, 1000),
    warnings: [...model.warnings],
    inputs: {
      provider: provider.id,
      model: model.name,
      outputTokens,
      latencySeconds,
      zone: zone.code,
      mix: zone.kgCo2eqPerKwh,
      zonePe: zone.peMjPerKwh,
      zoneWue: zone.wueLPerKwh,
      pue: { ...provider.pue },
      wue: { ...provider.wue },
      totalParamsB: { ...model.totalB },
      activeParamsB: { ...model.activeB },
    },
    steps: {
      generationSeconds: span((r) => r.generationSeconds),
      gpuCount: span((r) => r.gpuCount),
      energyPerGpuWh: span((r) => r.energyPerGpuKwh, 1000),
      serverEnergyWh: span((r) => r.serverEnergyKwh, 1000),
    },
    methodVersion: IMPACT_METHOD_VERSION,
  }
}

/** actual, the standard reference (gpt-4o, OpenAI, world mix, no latency cap) and what was saved. */
export function estimateMessageImpact(actual: ImpactInput): MessageImpact {
  const actualEstimate = estimateImpact(actual)
  const standard = estimateImpact({
    provider: STANDARD.provider,
    model: STANDARD.model,
    outputTokens: actualEstimate.inputs.outputTokens,
    zone: STANDARD.zone,
  })
  return { actual: actualEstimate, standard, saved: savedBetween(standard.gco2eq, actualEstimate.gco2eq) }
}

/** The shape stored in messages.co2_impact (grams, with the midpoint shown in the UI). */
export function toCo2Impact(impact: MessageImpact, measured?: boolean): Co2Impact {
  const { provider, model, outputTokens, latencySeconds, zone } = impact.actual.inputs
  return {
    saved: withMid(impact.saved),
    actual: withMid(impact.actual.gco2eq),
    standard: withMid(impact.standard.gco2eq),
    energyWh: withMid(impact.actual.energyWh),
    waterL: withMid(impact.actual.waterL),
    inputs: {
      provider,
      model,
      outputTokens,
      latencySeconds,
      zone,
      methodVersion: impact.actual.methodVersion,
      ...(measured === undefined ? {} : { measured }),
    },
  }
}

/** A model's size as the methodology and the calculator show it. */
const modelFigures = (m: ModelProfile) => ({
  name: m.name,
  provider: m.provider,
  architecture: m.architecture,
  totalParamsB: { ...m.totalB },
  activeParamsB: { ...m.activeB },
})

/** The method's tables for the how-it-works calculator. */
export function impactCatalog(): ImpactCatalogResponse {
  return {
    methodVersion: IMPACT_METHOD_VERSION,
    standard: { ...STANDARD },
    providers: Object.values(PROVIDERS).map(({ id, label, pue, zone }) => ({
      id,
      label,
      pue: { ...pue },
      zone,
    })),
    models: KNOWN_MODELS.map(modelFigures),
    zones: Object.entries(ELECTRICITY_MIXES).map(([code, mix]) => ({
      code,
      label: mix.label,
      kgCo2eqPerKwh: mix.kgCo2eqPerKwh,
      peMjPerKwh: mix.peMjPerKwh,
      wueLPerKwh: mix.wueLPerKwh,
    })),
  }
}

/** The whole EcoLogits catalogue for the calculator's model picker (GET /api/impact/models). */
export function impactModels(): ImpactModelsResponse {
  return {
    dataVersion: ECOLOGITS_DATA_VERSION,
    providers: Object.values(PROVIDERS)
      .filter((p) => p.id !== 'self')
      .map(({ id, label, pue, wue, zone }) => ({ id, label, pue: { ...pue }, wue: { ...wue }, zone })),
    models: KNOWN_MODELS.map((m) => ({
      ...modelFigures(m),
      warnings: [...m.warnings],
      aliases: [...m.aliases],
    })),
  }
}

interface Run {
  generationSeconds: number
  gpuCount: number
  energyPerGpuKwh: number
  serverEnergyKwh: number
  energyKwh: number
  primaryEnergyMj: number
  waterL: number
  usageKg: number
  embodiedKg: number
}

interface RunInput {
  activeB: number
  totalB: number
  pue: number
  /** On-site water of the provider, L/kWh. */
  wue: number
  outputTokens: number
  latencySeconds: number | null
  mix: number
  /** Primary energy factor of the zone, MJ/kWh. */
  zonePe: number
  /** Water behind the zone's electricity, L/kWh. */
  zoneWue: number
}

// Steps 1 to 8 of the methodology page. Operations keep llm.py's order so results match the
// library to the last digit, including where the GPU count's ceil falls. Primary energy and
// water use the request energy E of step 6 (kWh), as EcoLogits 0.9.1's request_usage_pe and
// request_usage_wcf do: E x pe_zone, and E x (WUE_provider + PUE x WUE_zone).
function run({
  activeB,
  totalB,
  pue,
  wue,
  outputTokens: n,
  latencySeconds,
  mix,
  zonePe,
  zoneWue,
}: RunInput): Run {
  const c = ECOLOGITS
  const energyPerTokenKwh =
    (c.gpuEnergyAlpha * Math.exp(c.gpuEnergyBeta * c.batchSize) * activeB + c.gpuEnergyGamma) / 1000
  const energyPerGpuKwh = n * energyPerTokenKwh
  const modelledSeconds = n * (c.latencyAlpha * activeB + c.latencyBeta * c.batchSize + c.latencyGamma)
  const generationSeconds =
    latencySeconds !== null && latencySeconds < modelledSeconds ? latencySeconds : modelledSeconds
  const gpuCount = gpusToHold(totalB)
  const serverEnergyKwh =
    (generationSeconds / 3600) * c.serverPowerKw * (gpuCount / c.serverGpus) * (1 / c.batchSize)
  const energyKwh = pue * (serverEnergyKwh + gpuCount * energyPerGpuKwh)
  const hardwareKg = (gpuCount / c.serverGpus) * c.serverEmbodiedKgCo2eq + gpuCount * c.gpuEmbodiedKgCo2eq
  const embodiedKg = (generationSeconds * hardwareKg) / (c.hardwareLifespanSeconds * c.batchSize)
  return {
    generationSeconds,
    gpuCount,
    energyPerGpuKwh,
    serverEnergyKwh,
    energyKwh,
    primaryEnergyMj: energyKwh * zonePe,
    waterL: energyKwh * (wue + pue * zoneWue),
    usageKg: energyKwh * mix,
    embodiedKg,
  }
}

/** Step 4: GPUs to hold the 16-bit weights plus overhead, rounded up to a power of two. */
function gpusToHold(totalB: number): number {
  const c = ECOLOGITS
  const memoryGb = (c.memoryOverhead * totalB * c.quantizationBits) / 8
  const needed = Math.ceil(memoryGb / c.gpuMemoryGb)
  // 2 ** ceil(log2(needed)) in llm.py; a loop avoids trusting log2 to be exact at powers of two.
  let gpus = 1
  while (gpus < needed) gpus *= 2
  return gpus
}

// Bound by bound (min run against min run, max against max), never negative. When the actual
// range is narrower than the standard's, the low-run saving can exceed the high-run one; the
// two are then ordered so a Range keeps min <= max.
function savedBetween(standard: Range, actual: Range): Range {
  const low = Math.max(0, standard.min - actual.min)
  const high = Math.max(0, standard.max - actual.max)
  return { min: Math.min(low, high), max: Math.max(low, high) }
}

function withMid(r: Range): { min: number; max: number; mid: number } {
  return { min: r.min, max: r.max, mid: midpoint(r) }
}
