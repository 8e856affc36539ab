import { z } from 'zod'

// The CO2 of one reply, counted with EcoLogits 0.9.1's LLM inference method
// (github genai-impact/ecologits, ecologits/impacts/llm.py; restated in shared/impact-methodology.md).
export const IMPACT_METHOD_VERSION = 'ecologits-0.9.1'
/** The EcoLogits release whose data (model catalogue, electricity mixes) the estimates use. */
export const ECOLOGITS_DATA_VERSION = '0.9.1'

// Loris' names for providers; cohere and huggingface_hub as EcoLogits spells them. Stored rows
// carry these ids, so existing ones never change (google_genai is 'google', mistralai 'mistral').
export const providerIdSchema = z.enum([
  'openai',
  'google',
  'anthropic',
  'mistral',
  'cohere',
  'huggingface_hub',
  'self',
])
export type ProviderId = z.infer<typeof providerIdSchema>

/** The warnings EcoLogits 0.9.1 attaches to catalogue models. */
export const modelWarningSchema = z.enum(['model-arch-not-released', 'model-arch-multimodal'])
export type ModelWarning = z.infer<typeof modelWarningSchema>

/** Each warning in words, as the screens show it. */
export const MODEL_WARNING_TEXT: Record<ModelWarning, string> = {
  'model-arch-not-released': 'architecture not published: parameters estimated',
  'model-arch-multimodal': 'multimodal model: only its text generation is counted',
}

/** Longest model name the estimate endpoint reads (the catalogue's longest is 54). */
export const MAX_MODEL_NAME_CHARS = 120

/** Largest reply the estimate endpoint prices: far above any model's output limit. */
export const MAX_ESTIMATE_TOKENS = 1_000_000

const zoneCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, 'zone is an ISO 3166 alpha-3 code, or WOR for the world mix')

/** A low and a high estimate: the min run and the max run of the method, never a single guess. */
export const rangeSchema = z
  .object({ min: z.number().nonnegative(), max: z.number().nonnegative() })
  .refine((r) => r.min <= r.max, { message: 'min must not exceed max' })
export type Range = z.infer<typeof rangeSchema>

/** GET /api/impact/estimate query: what the how-it-works calculator sends. */
export const impactEstimateQuery = z.object({
  model: z.string().trim().min(1).max(MAX_MODEL_NAME_CHARS),
  /** Optional: checked against the model's provider when given (Loris' id or EcoLogits' name). */
  provider: z.string().trim().min(1).max(40).optional(),
  outputTokens: z.coerce.number().int().min(0).max(MAX_ESTIMATE_TOKENS),
  latencySeconds: z.coerce.number().positive().optional(),
  zone: zoneCode.optional(),
})
export type ImpactEstimateQuery = z.infer<typeof impactEstimateQuery>

export const impactEstimateSchema = z.object({
  /** Request energy at the wall, PUE included (Wh). */
  energyWh: rangeSchema,
  /** Primary energy behind that electricity, MJ: E (kWh) x pe of the zone. */
  primaryEnergyMj: rangeSchema,
  /** Usage water footprint, litres: E (kWh) x (WUE of the provider + PUE x WUE of the zone). */
  waterL: rangeSchema,
  /** usage + embodied, grams CO2eq. */
  gco2eq: rangeSchema,
  usageGco2eq: rangeSchema,
  embodiedGco2eq: rangeSchema,
  /** EcoLogits' caveats for this model (empty for our own and custom models). */
  warnings: z.array(modelWarningSchema),
  inputs: z.object({
    provider: providerIdSchema,
    model: z.string(),
    outputTokens: z.number().int().nonnegative(),
    latencySeconds: z.number().positive().nullable(),
    zone: z.string(),
    /** Electricity mix of the zone, kgCO2eq per kWh. */
    mix: z.number().nonnegative(),
    /** Primary energy factor of the zone, MJ per kWh. */
    zonePe: z.number().nonnegative(),
    /** Water consumed to generate the zone's electricity, L per kWh. */
    zoneWue: z.number().nonnegative(),
    pue: rangeSchema,
    /** On-site water of the provider's data centres, L per kWh. */
    wue: rangeSchema,
    totalParamsB: rangeSchema,
    activeParamsB: rangeSchema,
  }),
  /** Intermediate values of the method, shown on the how-it-works page. */
  steps: z.object({
    generationSeconds: rangeSchema,
    gpuCount: rangeSchema,
    energyPerGpuWh: rangeSchema,
    serverEnergyWh: rangeSchema,
  }),
  methodVersion: z.literal(IMPACT_METHOD_VERSION),
})
export type ImpactEstimate = z.infer<typeof impactEstimateSchema>

/** actual: the model that answered; standard: gpt-4o at OpenAI in the world mix; saved: grams. */
export const impactEstimateResponse = z.object({
  actual: impactEstimateSchema,
  standard: impactEstimateSchema,
  saved: rangeSchema,
})
export type ImpactEstimateResponse = z.infer<typeof impactEstimateResponse>

/** What the calculator may offer: the method's tables, served by the server that owns them. */
export const impactCatalogResponse = z.object({
  methodVersion: z.literal(IMPACT_METHOD_VERSION),
  standard: z.object({ provider: providerIdSchema, model: z.string(), zone: z.string() }),
  providers: z.array(
    z.object({ id: providerIdSchema, label: z.string(), pue: rangeSchema, zone: z.string() }),
  ),
  models: z.array(
    z.object({
      name: z.string(),
      provider: providerIdSchema,
      architecture: z.enum(['dense', 'moe']),
      totalParamsB: rangeSchema,
      activeParamsB: rangeSchema,
    }),
  ),
  zones: z.array(
    z.object({
      code: z.string(),
      label: z.string(),
      kgCo2eqPerKwh: z.number().nonnegative(),
      /** Primary energy, MJ per kWh, and water behind the electricity, L per kWh. */
      peMjPerKwh: z.number().nonnegative(),
      wueLPerKwh: z.number().nonnegative(),
    }),
  ),
})
export type ImpactCatalogResponse = z.infer<typeof impactCatalogResponse>

const catalogueModel = z.object({
  name: z.string(),
  provider: providerIdSchema,
  architecture: z.enum(['dense', 'moe']),
  totalParamsB: rangeSchema,
  activeParamsB: rangeSchema,
  warnings: z.array(modelWarningSchema),
  /** Other names the estimate endpoint accepts for this model. */
  aliases: z.array(z.string()),
})
export type CatalogueModel = z.infer<typeof catalogueModel>

/** GET /api/impact/models: the whole EcoLogits catalogue for the calculator's model picker. */
export const impactModelsResponse = z.object({
  dataVersion: z.literal(ECOLOGITS_DATA_VERSION),
  providers: z.array(
    z.object({
      id: providerIdSchema,
      label: z.string(),
      pue: rangeSchema,
      wue: rangeSchema,
      zone: z.string(),
    }),
  ),
  models: z.array(catalogueModel),
})
export type ImpactModelsResponse = z.infer<typeof impactModelsResponse>

const storedGrams = z.object({
  min: z.number().nonnegative(),
  max: z.number().nonnegative(),
  mid: z.number().nonnegative(),
})

/**
 * messages.co2_impact: grams CO2eq plus the inputs, so a later method version can recompute
 * history. methodVersion stays a free string: old rows must keep parsing after an upgrade.
 */
/** Why the eco mode's routing chose the model that answered, and what it saved (models/routing.ts). */
export const replyRoutingSchema = z.object({
  /** In words: 'image: sent to a vision model'. */
  reason: z.string(),
  /** The eco mode's standard model: the largest of its pool. */
  against: z.string(),
  /** Grams CO2e saved against it for as many tokens (midpoint). */
  savedGrams: z.number(),
})
export type ReplyRouting = z.infer<typeof replyRoutingSchema>

export const co2ImpactSchema = z.object({
  saved: storedGrams,
  actual: storedGrams,
  standard: storedGrams,
  /** The reply's request energy, Wh, and usage water, litres; absent on rows stored before them. */
  energyWh: storedGrams.optional(),
  waterL: storedGrams.optional(),
  inputs: z.object({
    provider: providerIdSchema,
    model: z.string().min(1),
    outputTokens: z.number().int().nonnegative(),
    latencySeconds: z.number().positive().nullable(),
    zone: z.string().regex(/^[A-Z]{3}$/),
    methodVersion: z.string().min(1),
    /** true when `actual` was metered on our own machine (RAPL or CPU time) rather than estimated. */
    measured: z.boolean().optional(),
    /** How our own machine's energy was metered: RAPL counters, or CPU seconds x TDP per CPU. */
    energyMethod: z.enum(['measured', 'estimated']).optional(),
    /** The energy metered for the reply (kWh, before facility overhead), for the per-token median. */
    energyKwh: z.number().nonnegative().optional(),
    /** true when the provider reported no token count and outputTokens is reply characters / 4. */
    outputTokensEstimated: z.boolean().optional(),
  }),
  routing: replyRoutingSchema.optional(),
})
export type Co2Impact = z.infer<typeof co2ImpactSchema>

/** GET /api/metrics/co2/range: the signed-in user's grams saved, bounds summed min to min, max to max. */
export const co2SavedRangeResponse = storedGrams
export type Co2SavedRangeResponse = z.infer<typeof co2SavedRangeResponse>

export const CO2_HISTORY_MAX_DAYS = 365

/** GET /api/metrics/co2/history?days=N: the last N UTC days, today included. */
export const co2HistoryQuery = z.object({
  days: z.coerce
    .number({ error: `days must be a whole number from 1 to ${CO2_HISTORY_MAX_DAYS}` })
    .int(`days must be a whole number from 1 to ${CO2_HISTORY_MAX_DAYS}`)
    .min(1, `days must be a whole number from 1 to ${CO2_HISTORY_MAX_DAYS}`)
    .max(CO2_HISTORY_MAX_DAYS, `days must be a whole number from 1 to ${CO2_HISTORY_MAX_DAYS}`)
    .default(30),
})
export type Co2HistoryQuery = z.infer<typeof co2HistoryQuery>

/** One UTC day: grams (midpoints) summed over the replies sent that day; zeros when there were none. */
export const co2HistoryDay = z.object({
  /** YYYY-MM-DD, UTC. */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  saved: z.number().nonnegative(),
  actual: z.number().nonnegative(),
  /** Wh and litres (midpoints) of the replies that carry them (rows stored before them count 0). */
  energyWh: z.number().nonnegative(),
  waterL: z.number().nonnegative(),
  /** Replies with a CO2 estimate that day. */
  messages: z.number().int().nonnegative(),
})
export type Co2HistoryDay = z.infer<typeof co2HistoryDay>

/** Oldest day first, exactly `days` entries. */
export const co2HistoryResponse = z.object({
  days: z.array(co2HistoryDay),
  /** Over the whole window, bounds summed min to min and max to max. */
  totals: z.object({ actual: storedGrams, energyWh: storedGrams, waterL: storedGrams }),
})
export type Co2HistoryResponse = z.infer<typeof co2HistoryResponse>
