// The hosted providers, each an AI SDK provider package built once per app from the environment;
// null when its key (or endpoint) is not set. A new provider is one more factory here and one more
// case in registry.ts; given `wireFetch` of its wire format (wire/chunks.ts), its replies without
// tools take the lean token path (lean-stream.ts), else they go through streamText.
import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createMistral } from '@ai-sdk/mistral'
import { createOpenAI } from '@ai-sdk/openai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModel } from 'ai'
import type { Env } from '#server/env.ts'
import { reportedEnergy } from '#server/features/eco-engine/reported-energy.ts'
import { wireFetch } from './wire/wire-fetch.ts'

function energyMetadata(body: unknown) {
  const energy = reportedEnergy((body as { usage?: { loris_energy?: unknown } })?.usage?.loris_energy)
  return energy ? { loris: { ...energy } } : undefined
}

export type ModelFactory = (modelId: string) => LanguageModel

export function providerFactories(env: Env): Record<'gemini' | 'openai' | 'eco', ModelFactory | null> {
  // An explicit key always: the SDK would otherwise read GOOGLE_GENERATIVE_AI_API_KEY.
  const google = env.GEMINI_API_KEY
    ? createGoogleGenerativeAI({
        apiKey: env.GEMINI_API_KEY,
        baseURL: env.GEMINI_BASE_URL,
        fetch: wireFetch('gemini'),
      })
    : null
  const openai = env.OPENAI_API_KEY
    ? createOpenAI({
        apiKey: env.OPENAI_API_KEY,
        baseURL: env.OPENAI_BASE_URL,
        fetch: wireFetch('openai-chat'),
      })
    : null
  // Any OpenAI-compatible server (Ollama, llama.cpp server, vLLM) for the Loris eco mode, once
  // ECO_BASE_URL and ECO_MODEL are both set. ECO_API_KEY is optional: local servers need none.
  const eco =
    env.ECO_BASE_URL && env.ECO_MODEL
      ? createOpenAICompatible({
          name: 'loris-eco',
          baseURL: env.ECO_BASE_URL,
          apiKey: env.ECO_API_KEY,
          // Token counts feed the CO2 estimate; llama.cpp and vLLM send them only when asked.
          includeUsage: true,
          fetch: wireFetch('openai-compatible'),
          // An eco service (npm run eco:serve) reports the energy it metered in the usage.
          metadataExtractor: {
            extractMetadata: async ({ parsedBody }) => energyMetadata(parsedBody),
            createStreamExtractor: () => {
              let last: unknown
              return {
                processChunk: (chunk) => {
                  if ((chunk as { usage?: unknown })?.usage) last = chunk
                },
                buildMetadata: () => energyMetadata(last),
              }
            },
          },
        })
      : null
  return {
    gemini: google && ((modelId) => google(modelId)),
    // Chat Completions, not the Responses API: what gpt-3.5-turbo and most proxies speak.
    openai: openai && ((modelId) => openai.chat(modelId)),
    eco: eco && ((modelId) => eco.chatModel(modelId)),
  }
}

/** Anthropic (Claude, Messages API); null when ANTHROPIC_API_KEY is not set. */
export function anthropicFactory(env: Env): ModelFactory | null {
  if (!env.ANTHROPIC_API_KEY) return null
  const anthropic = createAnthropic({ apiKey: env.ANTHROPIC_API_KEY, baseURL: env.ANTHROPIC_BASE_URL })
  return (modelId) => anthropic(modelId)
}

/** Mistral (La Plateforme chat completions); null when MISTRAL_API_KEY is not set. */
export function mistralFactory(env: Env): ModelFactory | null {
  if (!env.MISTRAL_API_KEY) return null
  const mistral = createMistral({ apiKey: env.MISTRAL_API_KEY, baseURL: env.MISTRAL_BASE_URL })
  return (modelId) => mistral(modelId)
}

/** One OpenAI-compatible server of OPENAI_COMPATIBLE_ENDPOINTS (models/catalogue.ts reads them). */
export interface CompatibleEndpoint {
  name: string
  baseURL: string
  apiKey?: string
}

export function compatibleFactory(endpoint: CompatibleEndpoint): ModelFactory {
  const provider = createOpenAICompatible({
    name: endpoint.name,
    baseURL: endpoint.baseURL,
    apiKey: endpoint.apiKey,
    includeUsage: true,
  })
  return (modelId) => provider.chatModel(modelId)
}
