// The model catalogue: every model this deployment can call beside the three modes, with what it
// can do (vision, tools, context), its footprint per generated token (EcoLogits' method, or our
// own engine's size) and the plans that may use it. Built once at start-up from the environment:
// a provider key alone brings that provider's current small and mid models, OPENAI_COMPATIBLE_ENDPOINTS
// name OpenAI-compatible servers and their models, and LORIS_MODELS_FILE narrows or widens the list.
// A bad file or endpoint list stops the start with every problem, in words an operator can act on.
import { readFileSync } from 'node:fs'
import { z } from 'zod'
import type { ProviderId } from '#contract/impact.ts'
import { modelName } from '#contract/model-names.ts'
import { type ReplyFamily, TYPICAL_REPLY_TOKENS } from '#contract/models.ts'
import type { Env } from '#server/env.ts'
import { estimateImpact, ImpactInputError, midpoint } from '#server/features/impact/estimator.ts'
import { catalogueName } from '#server/features/impact/message-impact.ts'
import type { Plan } from '#server/lib/usage.ts'
import type { CompatibleEndpoint } from './providers.ts'

const PLANS = ['free', 'premium'] as const satisfies readonly Plan[]

export interface CatalogueModel {
  /** What a send names (`model`) and what the provider is sent. */
  id: string
  /** Who serves it: a built-in provider, or an OpenAI-compatible endpoint by its name. */
  provider: 'anthropic' | 'mistral' | 'openai' | 'google' | { endpoint: string }
  /** The stored chatModel of its replies. */
  family: ReplyFamily
  name: string
  capabilities: { vision: boolean; tools: boolean; contextTokens: number }
  /** Who runs it in the impact method's terms, and the size the method prices it at. */
  impactProvider: ProviderId
  /** Billions of parameters when the EcoLogits catalogue does not know the model. */
  paramsB: number | null
  /** Grams of CO2e per generated token (midpoint), null when the method cannot price it. */
  gramsPerToken: number | null
  plans: readonly Plan[]
  /** In the eco mode's routing pool. */
  eco: boolean
}

interface Default {
  id: string
  vision: boolean
  contextTokens: number
}

/**
 * What a provider key alone brings: its current small and mid models. Ids are the dated
 * snapshots EcoLogits prices.
 */
const DEFAULTS: Record<'anthropic' | 'mistral', Default[]> = {
  anthropic: [
    { id: 'claude-haiku-4-5-20251001', vision: true, contextTokens: 200_000 },
    { id: 'claude-sonnet-4-5-20250929', vision: true, contextTokens: 200_000 },
  ],
  mistral: [
    { id: 'mistral-small-latest', vision: true, contextTokens: 128_000 },
    { id: 'mistral-medium-latest', vision: true, contextTokens: 128_000 },
  ],
}

const DEFAULT_CONTEXT_TOKENS = 8_192

const entrySchema = z
  .object({
    id: z.string().trim().min(1, 'id is the model id the provider is sent'),
    provider: z.string().trim().min(1, 'provider is anthropic, mistral, openai, google or an endpoint name'),
    name: z.string().trim().min(1).optional(),
    vision: z.boolean().optional(),
    tools: z.boolean().optional(),
    contextTokens: z.number().int().positive().optional(),
    paramsB: z.number().positive().optional(),
    plans: z.array(z.enum(PLANS)).optional(),
    eco: z.boolean().optional(),
    /** false takes a default model off the list. */
    enabled: z.boolean().optional(),
  })
  .strict()
type Entry = z.infer<typeof entrySchema>

const modelsFileSchema = z.object({ models: z.array(entrySchema) }).strict()

const endpointsSchema = z.array(
  z
    .object({
      name: z
        .string()
        .trim()
        .regex(/^[a-z0-9][a-z0-9-]*$/, 'name is lower-case letters, digits and dashes'),
      baseURL: z.url(),
      apiKey: z.string().optional(),
      models: z.array(z.union([z.string().trim().min(1), entrySchema.omit({ provider: true })])).optional(),
    })
    .strict(),
)

export interface ModelCatalogue {
  models: CatalogueModel[]
  endpoints: CompatibleEndpoint[]
  /** Where the list came from, for the start-up table. */
  summary: string
}

function problems(where: string, error: z.ZodError): string {
  return error.issues
    .map((i) => `  ${where}${i.path.length ? ` ${i.path.join('.')}` : ''}: ${i.message}`)
    .join('\n')
}

function parseJson(where: string, text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new Error(`Invalid model configuration:\n  ${where}: not JSON (${(err as Error).message})`)
  }
}

function readModelsFile(path: string): Entry[] {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    throw new Error(
      `Invalid model configuration:\n  LORIS_MODELS_FILE: cannot read ${path} (${(err as Error).message})`,
    )
  }
  const parsed = modelsFileSchema.safeParse(parseJson(`LORIS_MODELS_FILE ${path}`, text))
  if (!parsed.success)
    throw new Error(`Invalid model configuration:\n${problems('LORIS_MODELS_FILE', parsed.error)}`)
  return parsed.data.models
}

function readEndpoints(text: string | undefined) {
  if (!text) return []
  const parsed = endpointsSchema.safeParse(parseJson('OPENAI_COMPATIBLE_ENDPOINTS', text))
  if (!parsed.success)
    throw new Error(`Invalid model configuration:\n${problems('OPENAI_COMPATIBLE_ENDPOINTS', parsed.error)}`)
  return parsed.data
}

/** Grams of CO2e per generated token by EcoLogits, over a typical reply; null if it cannot price it. */
export function gramsPerToken(
  impactProvider: ProviderId,
  modelId: string,
  paramsB: number | null,
): number | null {
  const model = paramsB
    ? { name: modelId, totalB: paramsB, activeB: paramsB }
    : (catalogueName(modelId) ?? null)
  if (!model) return null
  try {
    const estimate = estimateImpact({ provider: impactProvider, model, outputTokens: TYPICAL_REPLY_TOKENS })
    return midpoint(estimate.gco2eq) / TYPICAL_REPLY_TOKENS
  } catch (err) {
    if (err instanceof ImpactInputError) return null
    throw err
  }
}

const FAMILY: Record<string, ReplyFamily> = {
  anthropic: 'claude',
  mistral: 'mistral',
  openai: 'chatgpt',
  google: 'gemini',
}

function build(
  id: string,
  provider: CatalogueModel['provider'],
  entry: Partial<Entry> & { vision?: boolean; contextTokens?: number },
): CatalogueModel {
  const named = typeof provider === 'string' ? provider : null
  const impactProvider: ProviderId = named ?? 'self'
  const paramsB = entry.paramsB ?? null
  return {
    id,
    provider,
    family: named ? (FAMILY[named] ?? 'other') : 'other',
    name: entry.name ?? modelName(id),
    capabilities: {
      vision: entry.vision ?? false,
      tools: entry.tools ?? named !== null,
      contextTokens: entry.contextTokens ?? DEFAULT_CONTEXT_TOKENS,
    },
    impactProvider,
    paramsB,
    gramsPerToken: gramsPerToken(impactProvider, id, paramsB),
    plans: entry.plans ?? PLANS,
    eco: entry.eco ?? false,
  }
}

function keyFor(env: Env, provider: string): boolean {
  if (provider === 'anthropic') return Boolean(env.ANTHROPIC_API_KEY)
  if (provider === 'mistral') return Boolean(env.MISTRAL_API_KEY)
  if (provider === 'openai') return Boolean(env.OPENAI_API_KEY)
  if (provider === 'google') return Boolean(env.GEMINI_API_KEY)
  return false
}

/** The catalogue from the environment; throws with every problem when the configuration is wrong. */
export function loadCatalogue(env: Env): ModelCatalogue {
  const endpoints = readEndpoints(env.OPENAI_COMPATIBLE_ENDPOINTS)
  const models = new Map<string, CatalogueModel>()
  const errors: string[] = []
  const add = (model: CatalogueModel) => {
    if (models.has(model.id)) errors.push(`  model ${model.id} is listed twice`)
    models.set(model.id, model)
  }
  for (const provider of ['anthropic', 'mistral'] as const)
    if (keyFor(env, provider)) for (const d of DEFAULTS[provider]) add(build(d.id, provider, d))
  for (const endpoint of endpoints)
    for (const m of endpoint.models ?? []) {
      const entry = typeof m === 'string' ? { id: m } : m
      add(build(entry.id, { endpoint: endpoint.name }, entry))
    }
  const file = env.LORIS_MODELS_FILE ? readModelsFile(env.LORIS_MODELS_FILE) : []
  const names = new Set(endpoints.map((e) => e.name))
  for (const [i, entry] of file.entries()) {
    const where = `  LORIS_MODELS_FILE models.${i} (${entry.id})`
    if (entry.enabled === false) {
      models.delete(entry.id)
      continue
    }
    const builtIn = ['anthropic', 'mistral', 'openai', 'google'].includes(entry.provider)
    if (!builtIn && !names.has(entry.provider)) {
      errors.push(
        `${where}: provider ${entry.provider} is not anthropic, mistral, openai, google or an endpoint of OPENAI_COMPATIBLE_ENDPOINTS`,
      )
      continue
    }
    if (builtIn && !keyFor(env, entry.provider)) {
      errors.push(`${where}: provider ${entry.provider} has no API key in the environment`)
      continue
    }
    const known = models.get(entry.id)
    const provider = builtIn ? (entry.provider as 'anthropic') : { endpoint: entry.provider }
    // An entry for a listed model changes what it says and keeps the rest.
    const merged = known ? { ...known.capabilities, vision: known.capabilities.vision, ...entry } : entry
    models.set(entry.id, build(entry.id, provider, merged))
  }
  if (errors.length) throw new Error(`Invalid model configuration:\n${errors.join('\n')}`)
  const list = [...models.values()]
  const summary = list.length
    ? `${list.length} model(s): ${list.map((m) => m.id).join(', ')}`
    : 'none beside the modes'
  return {
    models: list,
    endpoints: endpoints.map(({ name, baseURL, apiKey }) => ({ name, baseURL, apiKey })),
    summary,
  }
}
