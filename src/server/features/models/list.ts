// GET /api/models: the catalogue's models a person's plan may use, and the three modes' standard
// models, each with its footprint per token: the composer estimates a message's footprint from
// them in the browser, without a request per keystroke.
import type { ChatModel } from '#contract/config.ts'
import { type ModelsResponse, TYPICAL_REPLY_TOKENS } from '#contract/models.ts'
import type { GeminiTier, Plan } from '#server/lib/usage.ts'
import { gramsPerToken } from './catalogue.ts'
import type { ModelRegistry } from './registry.ts'

const MODES: ChatModel[] = ['gemini', 'loris', 'chatgpt']

export function modelsFor(registry: ModelRegistry, plan: Plan, gemini: GeminiTier): ModelsResponse {
  const models = registry.catalogue.models
    .filter((m) => m.plans.includes(plan))
    .map((m) => ({
      id: m.id,
      name: m.name,
      family: m.family,
      provider: typeof m.provider === 'string' ? m.provider : m.provider.endpoint,
      capabilities: { ...m.capabilities },
      gramsPerToken: m.gramsPerToken,
      typicalReplyGrams: m.gramsPerToken === null ? null : m.gramsPerToken * TYPICAL_REPLY_TOKENS,
      eco: m.eco,
    }))
  const modes = MODES.map((mode) => {
    if (!registry.availability(mode).available) return { mode, modelId: null, gramsPerToken: null }
    const resolved = registry.resolve(mode, gemini)
    return {
      mode,
      modelId: resolved.modelId,
      gramsPerToken: gramsPerToken(resolved.provider, resolved.modelId, resolved.impact.selfParamsB),
    }
  })
  return { models, modes }
}
