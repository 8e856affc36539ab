// The provider registry: a chat mode plus the user's usage tier in, an AI SDK language model and
// what the reply's footprint needs out. The SDK providers are built once per app and reused; every
// call to a model goes through streamReply (stream-reply.ts).
import type { LanguageModel } from 'ai'
import type { ChatModel } from '#contract/config.ts'
import type { ProviderId } from '#contract/impact.ts'
import type { ReplyFamily } from '#contract/models.ts'
import type { Env } from '#server/env.ts'
import type { EcoEngine } from '#server/features/eco-engine/engine.ts'
import { ecoLanguageModel } from '#server/features/eco-engine/language-model.ts'
import { type ImpactSettings, impactSettings } from '#server/features/impact/message-impact.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { GeminiTier } from '#server/lib/usage.ts'
import { type Availability, modeAvailability } from './availability.ts'
import { type CatalogueModel, gramsPerToken, loadCatalogue, type ModelCatalogue } from './catalogue.ts'
import {
  anthropicFactory,
  compatibleFactory,
  type ModelFactory,
  mistralFactory,
  providerFactories,
} from './providers.ts'
import { orderPool, type PoolModel, type RouteRequest, route, routingSaving } from './routing.ts'

/** What a model can do: routing and the tools offered to it read these. */
export interface ModelCapabilities {
  vision: boolean
  tools: boolean
  /** Tokens of prompt it takes. */
  contextTokens: number
}

export interface ResolvedModel {
  /** The mode that answered, or the catalogue model's provider family. */
  chatModel: ReplyFamily
  /** Who runs the model, in the impact method's terms ('self' for our own eco endpoint). */
  provider: ProviderId
  modelId: string
  model: LanguageModel
  /** Tokens of thread history sent along (chat/history.ts). */
  historyBudgetTokens: number
  /** Where the reply is computed and our own model's size, for its CO2 (docs/decisions/003). */
  impact: ImpactSettings
  /** The in-process eco engine answering this reply (its energy is measured, decision 020). */
  local?: EcoEngine
  capabilities: ModelCapabilities
  /** The catalogue model answering, when it is one (its display name and footprint). */
  catalogue?: CatalogueModel
  /** Why the eco mode's routing chose this model, and what one token saves against its largest. */
  route?: { reason: string; against: string | null; savedPerToken: number | null }
}

export interface ModelRegistry {
  availability(mode: ChatModel): Availability
  /** Throws `service_unavailable:provider` with the reason, in plain words, when the mode is off. */
  resolve(mode: ChatModel, gemini: GeminiTier): ResolvedModel
  /** The catalogue's models this deployment serves (GET /api/models lists those a plan may use). */
  catalogue: ModelCatalogue
  /** A catalogue model by id; `not_found:model` when there is none. */
  resolveModel(id: string): ResolvedModel
  /** The eco mode's pool: its own model (`own`, resolve('loris')'s) then the catalogue's eco models. */
  ecoPool(own: ResolvedModel): PoolModel[]
  /** The model of the eco pool that answers `request` (routing.ts); `own` alone without a pool. */
  routeEco(own: ResolvedModel, request: RouteRequest): ResolvedModel
}

// Hosted models take long contexts, but every history token costs energy: 8k tokens is several
// pages of conversation. Small local models often run with a 4k context window.
const HOSTED_HISTORY_TOKENS = 8_000
const ECO_HISTORY_TOKENS = 2_000

/** What the three modes' models can do. */
const GEMINI_CAPABILITIES: ModelCapabilities = { vision: true, tools: true, contextTokens: 1_000_000 }
const OPENAI_CAPABILITIES: ModelCapabilities = { vision: false, tools: true, contextTokens: 16_000 }
const ECO_CAPABILITIES: ModelCapabilities = { vision: false, tools: false, contextTokens: 4_096 }

export function createModelRegistry(env: Env, engine: EcoEngine | null = null): ModelRegistry {
  const { gemini: google, openai, eco } = providerFactories(env)
  const impact = impactSettings(env)
  const geminiIds: Record<GeminiTier, string> = {
    pro: env.GEMINI_MODEL_PRO,
    'flash-lite': env.GEMINI_MODEL_FLASH_LITE,
    'premium-fallback': env.GEMINI_MODEL_PREMIUM_FALLBACK,
  }
  const hosted = (
    chatModel: ChatModel,
    provider: ProviderId,
    modelId: string,
    model: LanguageModel,
    capabilities: ModelCapabilities,
  ): ResolvedModel => ({
    chatModel,
    provider,
    modelId,
    model,
    historyBudgetTokens: HOSTED_HISTORY_TOKENS,
    impact,
    capabilities,
  })
  const catalogue = loadCatalogue(env)
  const factories = new Map<string, ModelFactory | null>([
    ['anthropic', anthropicFactory(env)],
    ['mistral', mistralFactory(env)],
    ['openai', openai ? (id: string) => openai(id) : null],
    ['google', google],
  ])
  for (const endpoint of catalogue.endpoints)
    factories.set(`endpoint:${endpoint.name}`, compatibleFactory(endpoint))
  const fromCatalogue = (m: CatalogueModel): ResolvedModel => {
    const key = typeof m.provider === 'string' ? m.provider : `endpoint:${m.provider.endpoint}`
    const factory = factories.get(key)
    if (!factory)
      throw new AppError('service_unavailable:provider', `${m.name} is not available on this server`)
    return {
      chatModel: m.family,
      provider: m.impactProvider,
      modelId: m.id,
      model: factory(m.id),
      historyBudgetTokens: Math.min(HOSTED_HISTORY_TOKENS, Math.floor(m.capabilities.contextTokens / 2)),
      impact: m.paramsB ? { ...impact, selfParamsB: m.paramsB } : impact,
      capabilities: { ...m.capabilities },
      catalogue: m,
    }
  }

  const availability = (mode: ChatModel) => modeAvailability(env, mode, engine?.status())

  const poolOf = (own: ResolvedModel): PoolModel[] =>
    orderPool(
      {
        modelId: own.modelId,
        capabilities: own.capabilities,
        gramsPerToken: gramsPerToken(own.provider, own.modelId, own.impact.selfParamsB),
      },
      catalogue.models
        .filter((m) => m.eco)
        .map((m) => ({ modelId: m.id, capabilities: m.capabilities, gramsPerToken: m.gramsPerToken })),
    )

  return {
    availability,
    catalogue,
    ecoPool: poolOf,
    routeEco(own, request) {
      const pool = poolOf(own)
      if (pool.length < 2) return own
      const chosen = route(pool, request)
      const answered = pool[chosen.index] ?? pool[0]
      const model = catalogue.models.find((m) => m.id === answered?.modelId)
      const resolved =
        chosen.index === 0 || !model ? own : { ...fromCatalogue(model), chatModel: own.chatModel }
      const saving = answered ? routingSaving(pool, answered, 1) : null
      return {
        ...resolved,
        route: {
          reason: chosen.reason,
          against: saving?.against ?? null,
          savedPerToken: saving?.savedGrams ?? null,
        },
      }
    },
    resolveModel(id) {
      const found = catalogue.models.find((m) => m.id === id)
      if (!found) throw new AppError('not_found:model', `There is no model ${id} on this server`)
      return fromCatalogue(found)
    },
    resolve(mode, tier) {
      const state = availability(mode)
      if (state.available) {
        if (mode === 'chatgpt' && openai)
          return hosted(mode, 'openai', env.OPENAI_MODEL, openai(env.OPENAI_MODEL), OPENAI_CAPABILITIES)
        if (mode === 'loris' && eco && env.ECO_MODEL) {
          const modelId = env.ECO_MODEL
          return {
            chatModel: mode,
            provider: 'self',
            modelId,
            model: eco(modelId),
            historyBudgetTokens: ECO_HISTORY_TOKENS,
            impact,
            capabilities: ECO_CAPABILITIES,
          }
        }
        // docs/decisions/020-eco-engine.md: without an endpoint, our own model in this process.
        if (mode === 'loris' && engine) {
          const modelId = engine.settings.modelFile.split(/[\\/]/).pop() ?? 'eco-model.gguf'
          return {
            chatModel: mode,
            provider: 'self',
            modelId,
            model: ecoLanguageModel(engine, modelId),
            historyBudgetTokens: ECO_HISTORY_TOKENS,
            impact: { ...impact, selfParamsB: impact.selfParamsB ?? engine.settings.paramsB },
            local: engine,
            capabilities: ECO_CAPABILITIES,
          }
        }
        if (mode === 'gemini' && google)
          return hosted(mode, 'google', geminiIds[tier], google(geminiIds[tier]), GEMINI_CAPABILITIES)
      }
      throw new AppError('service_unavailable:provider', state.reason ?? 'This chat mode is not available')
    },
  }
}
