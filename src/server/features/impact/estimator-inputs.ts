import { MAX_MODEL_NAME_CHARS, type ProviderId, type Range } from '#contract/impact.ts'
import { closestNames } from './closest-names.ts'
import { ELECTRICITY_MIXES } from './electricity-mixes.ts'
import {
  KNOWN_MODELS,
  type ModelProfile,
  PROVIDERS,
  type ProviderProfile,
  providerIdOf,
} from './methodology-data.ts'

// Checking what callers pass to the estimator: every bad input is an ImpactInputError naming the
// valid choices (shared/impact-methodology.md: "a clear error, never a silent zero").

export const KNOWN_ZONES: readonly string[] = Object.keys(ELECTRICITY_MIXES)

/** A model we know the size of but EcoLogits does not list (our own eco model): billions of parameters. */
export interface CustomModel {
  name: string
  totalB: number | Range
  activeB: number | Range
}

export type ImpactInputField = 'model' | 'zone' | 'provider' | 'outputTokens' | 'latencySeconds'

/** Bad input is an error that names the valid choices, never a silent zero. */
export class ImpactInputError extends Error {
  readonly field: ImpactInputField

  constructor(field: ImpactInputField, message: string) {
    super(message)
    this.name = 'ImpactInputError'
    this.field = field
  }
}

// Every name and alias of the catalogue: names are unique across providers (ecologits-data.ts
// checks it at start-up), so a name alone finds its model.
const BY_NAME: ReadonlyMap<string, ModelProfile> = new Map(
  KNOWN_MODELS.flatMap((m) => [m.name, ...m.aliases].map((name) => [name.toLowerCase(), m] as const)),
)
const ALL_NAMES: readonly string[] = KNOWN_MODELS.flatMap((m) => [m.name, ...m.aliases])

/** The catalogued model of that name or alias, whatever its provider; names as provider APIs spell them. */
export function findModel(name: string): ModelProfile | undefined {
  return BY_NAME.get(normalizeModelName(name))
}

/** The known names nearest to a mistyped one (closest first), for error messages. */
export function suggestModels(name: string, count = 5): string[] {
  return closestNames(normalizeModelName(name).slice(0, MAX_MODEL_NAME_CHARS), ALL_NAMES, count)
}

/** For requests that name only a model (the estimate endpoint): the provider that serves it. */
export function providerForModel(name: string): ProviderId {
  const found = findModel(name)
  if (found) return found.provider
  throw new ImpactInputError('model', unknownModelMessage(name))
}

function unknownModelMessage(name: string, provider?: ProviderId): string {
  const where = provider ? ` for provider ${provider}` : ''
  return `Unknown model "${name.slice(0, MAX_MODEL_NAME_CHARS)}"${where}. Closest known models: ${suggestModels(name).join(', ')}. GET /api/impact/models lists all ${KNOWN_MODELS.length}.`
}

/**
 * The provider a request names, Loris' id or EcoLogits' ('google' or 'google_genai'), checked
 * against the model's own; absent: the model's.
 */
export function providerForRequest(model: string, provider: string | undefined): ProviderId {
  const served = providerForModel(model)
  if (provider === undefined) return served
  const id = providerIdOf(provider)
  if (!id || id === 'self') {
    throw new ImpactInputError(
      'provider',
      `Unknown provider ${JSON.stringify(provider)}. Catalogued providers: ${Object.keys(PROVIDERS)
        .filter((p) => p !== 'self')
        .join(', ')}.`,
    )
  }
  if (id !== served) {
    throw new ImpactInputError(
      'provider',
      `Model "${findModel(model)?.name}" is served by ${served}, not ${id}.`,
    )
  }
  return id
}

function normalizeModelName(name: string): string {
  // Gemini's API reports "models/gemini-2.5-flash"; case and spaces are never meaningful.
  return name
    .trim()
    .toLowerCase()
    .replace(/^models\//, '')
}

export function resolveProvider(id: unknown): ProviderProfile {
  if (typeof id === 'string' && Object.hasOwn(PROVIDERS, id)) return PROVIDERS[id as ProviderId]
  throw new ImpactInputError(
    'provider',
    `Unknown provider ${JSON.stringify(id)}. Valid providers: ${Object.keys(PROVIDERS).join(', ')}.`,
  )
}

export function resolveModel(provider: ProviderProfile, model: string | CustomModel): ModelProfile {
  if (typeof model === 'object' && model !== null) return customModel(provider.id, model)
  if (typeof model !== 'string') {
    throw new ImpactInputError(
      'model',
      `model must be a name or { name, totalB, activeB }, got ${String(model)}.`,
    )
  }
  const found = findModel(model)
  if (found?.provider === provider.id) return found
  if (found) {
    throw new ImpactInputError(
      'model',
      `Model "${found.name}" is served by ${found.provider}, not ${provider.id}.`,
    )
  }
  const custom = 'pass { name, totalB, activeB } with its parameter counts in billions (a 360M model is 0.36)'
  if (provider.id === 'self') {
    throw new ImpactInputError('model', `Provider "self" runs our own models: ${custom}.`)
  }
  throw new ImpactInputError(
    'model',
    `${unknownModelMessage(model, provider.id)} For another model, ${custom}.`,
  )
}

function customModel(provider: ProviderId, model: CustomModel): ModelProfile {
  const name = typeof model.name === 'string' ? model.name.trim() : ''
  const totalB = toRange(model.totalB)
  const activeB = toRange(model.activeB)
  const valid =
    name !== '' &&
    totalB !== null &&
    activeB !== null &&
    [totalB.min, totalB.max, activeB.min, activeB.max].every((b) => Number.isFinite(b) && b > 0) &&
    totalB.min <= totalB.max &&
    activeB.min <= activeB.max &&
    activeB.min <= totalB.min &&
    activeB.max <= totalB.max
  if (!valid) {
    throw new ImpactInputError(
      'model',
      `A custom model needs a name and parameter counts in billions > 0, min <= max, active within total; got ${JSON.stringify(model)}.`,
    )
  }
  const isDense = totalB.min === activeB.min && totalB.max === activeB.max
  return {
    name,
    provider,
    architecture: isDense ? 'dense' : 'moe',
    totalB,
    activeB,
    warnings: [],
    aliases: [],
  }
}

function toRange(value: number | Range | undefined): Range | null {
  if (typeof value === 'number') return { min: value, max: value }
  if (
    typeof value === 'object' &&
    value !== null &&
    typeof value.min === 'number' &&
    typeof value.max === 'number'
  ) {
    return { min: value.min, max: value.max }
  }
  return null
}

export function resolveZone(
  zone: string | null | undefined,
  fallback: string,
): { code: string; kgCo2eqPerKwh: number; peMjPerKwh: number; wueLPerKwh: number } {
  const code = zone == null ? fallback : String(zone).trim().toUpperCase()
  const mix = Object.hasOwn(ELECTRICITY_MIXES, code) ? ELECTRICITY_MIXES[code] : undefined
  if (mix)
    return { code, kgCo2eqPerKwh: mix.kgCo2eqPerKwh, peMjPerKwh: mix.peMjPerKwh, wueLPerKwh: mix.wueLPerKwh }
  throw new ImpactInputError(
    'zone',
    `Unknown electricity zone ${JSON.stringify(zone)}. Use WOR (world mix) or an ISO 3166 alpha-3 code from EcoLogits' table: ${KNOWN_ZONES.join(', ')}.`,
  )
}

export function checkTokens(n: unknown): number {
  if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) return n
  throw new ImpactInputError('outputTokens', `outputTokens must be a whole number >= 0, got ${String(n)}.`)
}

export function checkLatency(seconds: unknown): number | null {
  if (seconds == null) return null
  if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0) return seconds
  throw new ImpactInputError(
    'latencySeconds',
    `latencySeconds must be a number of seconds > 0, or left out when not measured; got ${String(seconds)}.`,
  )
}
