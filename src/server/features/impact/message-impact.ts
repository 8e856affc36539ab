import type { Co2Impact, ProviderId } from '#contract/impact.ts'
import { IMPACT_METHOD_VERSION, providerIdSchema } from '#contract/impact.ts'
import type { Env } from '#server/env.ts'
import { ELECTRICITY_MIXES } from './electricity-mixes.ts'
import {
  estimateImpact,
  estimateMessageImpact,
  findModel,
  ImpactInputError,
  midpoint,
  toCo2Impact,
} from './estimator.ts'
import { PROVIDERS, STANDARD } from './methodology-data.ts'

const JOULES_PER_KWH = 3_600_000

// The CO2 of one finished reply, as stored in messages.co2_impact (docs/decisions/003).

export interface ImpactSettings {
  /** LORIS_ZONE: where this deployment's replies are computed; null: each provider's data-centre zone. */
  zone: string | null
  /** ECO_MODEL_PARAMS_B: the size of the eco model we run ourselves, billions of parameters. */
  selfParamsB: number | null
}

export function impactSettings(env: Pick<Env, 'LORIS_ZONE' | 'ECO_MODEL_PARAMS_B'>): ImpactSettings {
  return { zone: env.LORIS_ZONE ?? null, selfParamsB: env.ECO_MODEL_PARAMS_B ?? null }
}

export interface ReplyForImpact extends ImpactSettings {
  /** Who ran the model, in the method's terms ('self' for our own eco endpoint). */
  provider: string
  /** The model id as sent to the provider, e.g. 'gemini-2.0-flash-001'. */
  modelId: string
  /** Generated tokens as the provider reported them; null when it reported none. */
  outputTokens: number | null
  latencyMs: number | null
  /** Length of the stored reply, for the characters / 4 fallback. */
  replyChars: number
}

/** Rough tokens of a reply when the provider counts none: about 4 characters per token in English. */
export const CHARS_PER_TOKEN = 4

/**
 * The stored impact of a reply, or null when the method cannot price its model (a catalogue gap,
 * or our own model without ECO_MODEL_PARAMS_B): no number is better than a made-up one.
 */
export function messageImpact(reply: ReplyForImpact): Co2Impact | null {
  const provider = providerIdSchema.safeParse(reply.provider)
  if (!provider.success) return null
  const model = modelFor(provider.data, reply)
  if (!model) return null
  // Some OpenAI-compatible servers send usage with zeros rather than none.
  const reported = reply.outputTokens !== null && (reply.outputTokens > 0 || reply.replyChars === 0)
  const outputTokens = reported
    ? (reply.outputTokens as number)
    : Math.ceil(reply.replyChars / CHARS_PER_TOKEN)
  try {
    const impact = estimateMessageImpact({
      provider: provider.data,
      model,
      outputTokens,
      latencySeconds: reply.latencyMs && reply.latencyMs > 0 ? reply.latencyMs / 1000 : null,
      zone: reply.zone,
    })
    const stored = toCo2Impact(impact)
    return reported ? stored : { ...stored, inputs: { ...stored.inputs, outputTokensEstimated: true } }
  } catch (err) {
    if (err instanceof ImpactInputError) return null
    throw err
  }
}

function modelFor(provider: ProviderId, reply: ReplyForImpact) {
  if (provider === 'self') {
    if (!reply.selfParamsB) return null
    // A model we run ourselves is dense at its real size (the methodology page, "Models").
    return { name: reply.modelId, totalB: reply.selfParamsB, activeB: reply.selfParamsB }
  }
  const name = catalogueName(reply.modelId)
  return name && findModel(name)?.provider === provider ? name : null
}

// Provider APIs name snapshots of a catalogued model: 'gemini-2.0-flash-001',
// 'gpt-4o-2024-08-06', 'gemini-2.5-flash-lite-preview-06-17', 'gpt-4o-latest'.
const SNAPSHOT_SUFFIX = /-(latest|preview(-[\w.]+)*|exp(-[\w.]+)*|\d{3,4}|\d{4}-\d{2}-\d{2}|\d{2}-\d{2})$/i

/** The catalogue's name for a provider's model id, dropping snapshot suffixes one at a time. */
export function catalogueName(modelId: string): string | null {
  let name = modelId.trim()
  for (let i = 0; i < 4; i++) {
    const found = findModel(name)
    if (found) return found.name
    const shorter = name.replace(SNAPSHOT_SUFFIX, '')
    if (shorter === name) return null
    name = shorter
  }
  return null
}

/** Energy an in-process reply used on this machine (eco-engine/energy.ts). */
export interface MeasuredEnergy {
  joules: number
  /** RAPL counters ('measured') or CPU seconds x TDP per logical CPU ('estimated'). */
  method: 'measured' | 'estimated'
}

export interface MeasuredReply {
  modelId: string
  outputTokens: number
  latencyMs: number | null
  zone: string | null
  energy: MeasuredEnergy
}

/**
 * The CO2 of a reply computed on our own CPU (shared/impact-methodology.md, "actual"): its
 * measured energy times the facility overhead (the self provider's PUE range) times the zone's
 * mix. `standard` stays the method's gpt-4o estimate for as many tokens; `saved` is the gap.
 */
export function measuredMessageImpact(reply: MeasuredReply): Co2Impact {
  const zone = reply.zone && ELECTRICITY_MIXES[reply.zone] ? reply.zone : PROVIDERS.self.zone
  const mix = ELECTRICITY_MIXES[zone]?.kgCo2eqPerKwh ?? 0
  const zoneWue = ELECTRICITY_MIXES[zone]?.wueLPerKwh ?? 0
  const kwh = reply.energy.joules / JOULES_PER_KWH
  const { pue, wue } = PROVIDERS.self
  const actual = { min: kwh * pue.min * mix * 1000, max: kwh * pue.max * mix * 1000 }
  // Energy at the wall (facility overhead included) and water as the method counts it for the
  // estimated models: E x (on-site WUE + PUE x the zone's WUE), so the Consumption totals and the
  // reply's tooltip add up measured and estimated replies alike.
  const energyWh = { min: kwh * pue.min * 1000, max: kwh * pue.max * 1000 }
  const waterL = { min: kwh * (wue.min + pue.min * zoneWue), max: kwh * (wue.max + pue.max * zoneWue) }
  const standard = estimateImpact({
    provider: STANDARD.provider,
    model: STANDARD.model,
    outputTokens: reply.outputTokens,
    zone: STANDARD.zone,
  }).gco2eq
  const low = Math.max(0, standard.min - actual.min)
  const high = Math.max(0, standard.max - actual.max)
  const mid = (r: { min: number; max: number }) => ({ ...r, mid: midpoint(r) })
  return {
    saved: mid({ min: Math.min(low, high), max: Math.max(low, high) }),
    actual: mid(actual),
    standard: mid(standard),
    energyWh: mid(energyWh),
    waterL: mid(waterL),
    inputs: {
      provider: 'self',
      model: reply.modelId,
      outputTokens: reply.outputTokens,
      latencySeconds: reply.latencyMs && reply.latencyMs > 0 ? reply.latencyMs / 1000 : null,
      zone,
      methodVersion: IMPACT_METHOD_VERSION,
      measured: true,
      energyMethod: reply.energy.method,
      energyKwh: kwh,
    },
  }
}
