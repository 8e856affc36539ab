import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModel } from 'ai'
import type { Env } from '#server/env.ts'
import { reportedEnergy } from '#server/features/eco-engine/reported-energy.ts'
import { wireFetch } from '../wire/wire-fetch.ts'

/**
 * Any OpenAI-compatible server (Ollama, llama.cpp server, vLLM) for the Loris eco mode; null
 * unless ECO_BASE_URL and ECO_MODEL are both set. ECO_API_KEY is optional: local servers need none.
 */
export function ecoFactory(env: Env): ((modelId: string) => LanguageModel) | null {
  if (!env.ECO_BASE_URL || !env.ECO_MODEL) return null
  const eco = createOpenAICompatible({
    name: 'loris-eco',
    baseURL: env.ECO_BASE_URL,
    apiKey: env.ECO_API_KEY,
    // Token counts feed the CO2 estimate; llama.cpp and vLLM send them only when asked.
    includeUsage: true,
    // The streamed chunks are read by the hot loop (decision 019).
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
  return (modelId) => eco.chatModel(modelId)
}

function energyMetadata(body: unknown) {
  const energy = reportedEnergy((body as { usage?: { loris_energy?: unknown } })?.usage?.loris_energy)
  return energy ? { loris: { ...energy } } : undefined
}
