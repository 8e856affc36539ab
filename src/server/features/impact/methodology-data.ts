import type { ModelWarning, ProviderId, Range } from '#contract/impact.ts'
import { ECOLOGITS_DATA } from './ecologits-data.ts'

// Every constant of the method, each with its source. The method is EcoLogits 0.9.1
// (github genai-impact/ecologits), restated for Loris in shared/impact-methodology.md; where the
// two differ, the methodology page wins (it is what we publish on the how-it-works page).

/** ecologits/impacts/llm.py, module constants. */
export const ECOLOGITS = {
  // GPU energy per output token, Wh: alpha * exp(beta * B) * P_active + gamma (llm.py gpu_energy).
  gpuEnergyAlpha: 1.1665273170451914e-6,
  gpuEnergyBeta: -0.011205921025579175,
  gpuEnergyGamma: 4.052928146734005e-5,
  // Generation time per output token, s: alpha * P_active + beta * B + gamma (generation_latency).
  latencyAlpha: 0.0006785088094353663,
  latencyBeta: 0.0003119310311688259,
  latencyGamma: 0.019473717579473387,
  /** BATCH_SIZE: requests served together; each request carries 1/B of the server. */
  batchSize: 64,
  /** MODEL_QUANTIZATION_BITS: weights held in 16 bits. */
  quantizationBits: 16,
  /** model_required_memory's factor 1.2: memory overhead on top of the weights. */
  memoryOverhead: 1.2,
  gpuMemoryGb: 80,
  gpuEmbodiedKgCo2eq: 164,
  /** SERVER_POWER, kW, the server without its GPUs. */
  serverPowerKw: 1.2,
  serverGpus: 8,
  serverEmbodiedKgCo2eq: 5700,
  /** HARDWARE_LIFESPAN: 3 years in seconds = 94,608,000. */
  hardwareLifespanSeconds: 3 * 365 * 24 * 60 * 60,
} as const

export interface ProviderProfile {
  id: ProviderId
  label: string
  /** Power usage effectiveness of its data centres; a range uses min in the min run, max in the max. */
  pue: Range
  /** Water usage effectiveness on site, L per kWh; same pairing as the PUE. */
  wue: Range
  /** Default electricity zone when the caller names none (ISO 3166 alpha-3 or WOR). */
  zone: string
  source: string
}

// EcoLogits' provider names for the ones Loris already stored under its own ids.
const LORIS_PROVIDER_ID: Readonly<Record<string, ProviderId>> = {
  openai: 'openai',
  google_genai: 'google',
  anthropic: 'anthropic',
  mistralai: 'mistral',
  cohere: 'cohere',
  huggingface_hub: 'huggingface_hub',
}

const LABELS: Readonly<Record<ProviderId, string>> = {
  openai: 'OpenAI',
  google: 'Google',
  anthropic: 'Anthropic',
  mistral: 'Mistral AI',
  cohere: 'Cohere',
  huggingface_hub: 'Hugging Face',
  self: 'Loris (self-hosted)',
}

function lorisProviderId(ecologitsName: string): ProviderId {
  const id = LORIS_PROVIDER_ID[ecologitsName]
  if (!id) throw new Error(`EcoLogits provider ${ecologitsName} has no Loris id (methodology-data.ts)`)
  return id
}

/** A provider id as Loris or EcoLogits spells it ('google' or 'google_genai'), or undefined. */
export function providerIdOf(name: string): ProviderId | undefined {
  const key = name.trim().toLowerCase()
  if (Object.hasOwn(LABELS, key)) return key as ProviderId
  return Object.hasOwn(LORIS_PROVIDER_ID, key) ? LORIS_PROVIDER_ID[key] : undefined
}

const { catalogue } = ECOLOGITS_DATA
const ECOLOGITS_PROVIDERS = `EcoLogits ${catalogue.version} ecologits/tracers/utils.py PROVIDER_CONFIG_MAP`

export const PROVIDERS: Readonly<Record<ProviderId, ProviderProfile>> = {
  ...(Object.fromEntries(
    Object.entries(catalogue.providers).map(([name, p]) => {
      const id = lorisProviderId(name)
      return [
        id,
        { id, label: LABELS[id], pue: p.pue, wue: p.wue, zone: p.zone, source: ECOLOGITS_PROVIDERS },
      ]
    }),
  ) as Record<Exclude<ProviderId, 'self'>, ProviderProfile>),
  // Our own eco model. Where it runs decides the overhead: 1.0 is a machine with no facility
  // overhead, 1.56 the industry-average data centre (Uptime Institute Global Data Center Survey
  // 2024, average annual PUE). Water on site: none for an air-cooled machine, up to 1.8 L/kWh,
  // the industry average The Green Grid's WUE work reports (docs/decisions/011). The caller
  // passes the zone it runs in; the world mix until it does.
  self: {
    id: 'self',
    label: LABELS.self,
    pue: { min: 1.0, max: 1.56 },
    wue: { min: 0, max: 1.8 },
    zone: 'WOR',
    source:
      'Loris: PUE 1.0 to 1.56 (Uptime Institute 2024 average), WUE 0 to 1.8 L/kWh, zone from the deployment',
  },
}

export interface ModelProfile {
  name: string
  provider: ProviderId
  architecture: 'dense' | 'moe'
  /** Billions of parameters. Dense models: total = active, often a range for undisclosed sizes. */
  totalB: Range
  activeB: Range
  warnings: readonly ModelWarning[]
  /** Other names of this model (EcoLogits' aliases). */
  aliases: readonly string[]
}

// Every model of EcoLogits' ecologits/data/models.json (dataset/ecologits-0.9.1/catalogue.json),
// in the file's order; the eight Loris calls itself are among them with the figures of
// shared/impact-methodology.md "Models".
export const KNOWN_MODELS: readonly ModelProfile[] = catalogue.models.map((m) => ({
  name: m.name,
  provider: lorisProviderId(m.provider),
  architecture: m.architecture,
  totalB: m.totalParamsB,
  activeB: m.activeParamsB,
  warnings: m.warnings,
  aliases: catalogue.aliases.filter((a) => a.alias === m.name).map((a) => a.name),
}))

/** The one reference every reply is compared with (shared/impact-methodology.md "standard"). */
export const STANDARD = { provider: 'openai', model: 'gpt-4o', zone: 'WOR' } as const satisfies {
  provider: ProviderId
  model: string
  zone: string
}
