// The provider registry: a chat mode plus the user's usage tier in, an AI SDK language model and
// what the reply's footprint needs out. The SDK providers are built once per app and reused; every
// call to a model goes through streamReply (stream-reply.ts).
import type { LanguageModel } from 'ai'
import type { ChatModel } from '#contract/config.ts'
import type { ProviderId } from '#contract/impact.ts'
import type { Env } from '#server/env.ts'
import type { EcoEngine } from '#server/features/eco-engine/engine.ts'
import { ecoLanguageModel } from '#server/features/eco-engine/language-model.ts'
import { type ImpactSettings, impactSettings } from '#server/features/impact/message-impact.ts'
import { AppError } from '#server/lib/app-error.ts'
import { type Availability, modeAvailability } from './availability.ts'
import { providerFactories } from './providers.ts'

/** Which Gemini model a usage tier gets: env GEMINI_MODEL_PRO, _FLASH_LITE or _PREMIUM_FALLBACK. */
export type GeminiTier = 'pro' | 'flash-lite' | 'premium-fallback'

export interface ResolvedModel {
  chatModel: ChatModel
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
}

export interface ModelRegistry {
  availability(mode: ChatModel): Availability
  /** Throws `service_unavailable:provider` with the reason, in plain words, when the mode is off. */
  resolve(mode: ChatModel, gemini: GeminiTier): ResolvedModel
}

// Hosted models take long contexts, but every history token costs energy: 8k tokens is several
// pages of conversation. Small local models often run with a 4k context window.
const HOSTED_HISTORY_TOKENS = 8_000
const ECO_HISTORY_TOKENS = 2_000

export function createModelRegistry(env: Env, engine: EcoEngine | null = null): ModelRegistry {
  const { gemini: google, openai, eco } = providerFactories(env)
  const impact = impactSettings(env)
  const geminiIds: Record<GeminiTier, string> = {
    pro: env.GEMINI_MODEL_PRO,
    'flash-lite': env.GEMINI_MODEL_FLASH_LITE,
    'premium-fallback': env.GEMINI_MODEL_PREMIUM_FALLBACK,
  }
  const hosted = (chatModel: ChatModel, provider: ProviderId, modelId: string, model: LanguageModel) => ({
    chatModel,
    provider,
    modelId,
    model,
    historyBudgetTokens: HOSTED_HISTORY_TOKENS,
    impact,
  })

  const availability = (mode: ChatModel) => modeAvailability(env, mode, engine?.status())

  return {
    availability,
    resolve(mode, tier) {
      const state = availability(mode)
      if (state.available) {
        if (mode === 'chatgpt' && openai)
          return hosted(mode, 'openai', env.OPENAI_MODEL, openai(env.OPENAI_MODEL))
        if (mode === 'loris' && eco && env.ECO_MODEL) {
          const modelId = env.ECO_MODEL
          return {
            chatModel: mode,
            provider: 'self',
            modelId,
            model: eco(modelId),
            historyBudgetTokens: ECO_HISTORY_TOKENS,
            impact,
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
          }
        }
        if (mode === 'gemini' && google)
          return hosted(mode, 'google', geminiIds[tier], google(geminiIds[tier]))
      }
      throw new AppError('service_unavailable:provider', state.reason ?? 'This chat mode is not available')
    },
  }
}
