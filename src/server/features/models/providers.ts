// The hosted providers, each an AI SDK provider package built once per app from the environment;
// null when its key (or endpoint) is not set. A new provider is one more entry here and one more
// case in registry.ts; given `wireFetch` of its wire format (wire/chunks.ts), its replies without
// tools take the lean token path (lean-stream.ts), else they go through streamText.
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModel } from 'ai'
import type { Env } from '#server/env.ts'
import { wireFetch } from './wire/wire-fetch.ts'

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
        })
      : null
  return {
    gemini: google && ((modelId) => google(modelId)),
    // Chat Completions, not the Responses API: what gpt-3.5-turbo and most proxies speak.
    openai: openai && ((modelId) => openai.chat(modelId)),
    eco: eco && ((modelId) => eco.chatModel(modelId)),
  }
}
