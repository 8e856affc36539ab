import type { ProviderId, Range } from '#contract/impact.ts'

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
  /** Default electricity zone when the caller names none (ISO 3166 alpha-3 or WOR). */
  zone: string
  source: string
}

const ECOLOGITS_PROVIDERS = 'EcoLogits 0.9.1 ecologits/tracers/utils.py PROVIDER_CONFIG_MAP'

export const PROVIDERS: Readonly<Record<ProviderId, ProviderProfile>> = {
  openai: {
    id: 'openai',
    label: 'OpenAI',
    pue: { min: 1.2, max: 1.2 },
    zone: 'USA',
    source: ECOLOGITS_PROVIDERS,
  },
  google: {
    id: 'google',
    label: 'Google',
    pue: { min: 1.09, max: 1.09 },
    zone: 'USA',
    source: ECOLOGITS_PROVIDERS,
  },
  anthropic: {
    id: 'anthropic',
    label: 'Anthropic',
    pue: { min: 1.09, max: 1.14 },
    zone: 'USA',
    source: ECOLOGITS_PROVIDERS,
  },
  mistral: {
    id: 'mistral',
    label: 'Mistral AI',
    pue: { min: 1.16, max: 1.16 },
    zone: 'SWE',
    source: ECOLOGITS_PROVIDERS,
  },
  // Our own eco model. Where it runs decides the overhead: 1.0 is a machine with no facility
  // overhead, 1.56 the industry-average data centre (Uptime Institute Global Data Center Survey
  // 2024, average annual PUE). The caller passes the zone it runs in; the world mix until it does.
  self: {
    id: 'self',
    label: 'Loris (self-hosted)',
    pue: { min: 1.0, max: 1.56 },
    zone: 'WOR',
    source: 'Loris: PUE 1.0 to 1.56 (Uptime Institute 2024 average), zone from the deployment',
  },
}

export interface ModelProfile {
  name: string
  provider: ProviderId
  architecture: 'dense' | 'moe'
  /** Billions of parameters. Dense models: total = active, often a range for undisclosed sizes. */
  totalB: Range
  activeB: Range
}

const dense = (name: string, provider: ProviderId, min: number, max: number): ModelProfile => ({
  name,
  provider,
  architecture: 'dense',
  totalB: { min, max },
  activeB: { min, max },
})

const moe = (name: string, provider: ProviderId, total: number, min: number, max: number): ModelProfile => ({
  name,
  provider,
  architecture: 'moe',
  totalB: { min: total, max: total },
  activeB: { min, max },
})

// shared/impact-methodology.md "Models" (from EcoLogits ecologits/data/models.json). The copy of
// models.json we could read (commit 0ae6821b) predates gemini-2.5 and gives gpt-4o 55-220 B
// active and gemini-2.0-flash dense 20-70 B; the methodology page's numbers are the ones we use.
export const KNOWN_MODELS: readonly ModelProfile[] = [
  moe('gemini-2.5-pro', 'google', 2000, 200, 600),
  moe('gemini-2.5-flash', 'google', 440, 44, 132),
  moe('gemini-2.0-flash', 'google', 440, 44, 132),
  dense('gemini-2.5-flash-lite', 'google', 8, 28),
  dense('gemini-2.0-flash-lite', 'google', 8, 28),
  moe('gpt-4o', 'openai', 440, 44, 132),
  dense('gpt-4o-mini', 'openai', 8, 28),
  dense('gpt-3.5-turbo', 'openai', 20, 70),
]

/** The one reference every reply is compared with (shared/impact-methodology.md "standard"). */
export const STANDARD = { provider: 'openai', model: 'gpt-4o', zone: 'WOR' } as const satisfies {
  provider: ProviderId
  model: string
  zone: string
}
