import { createOpenAI } from '@ai-sdk/openai'
import type { LanguageModel } from 'ai'
import type { Env } from '#server/env.ts'
import { wireFetch } from '../wire/wire-fetch.ts'

/** OpenAI through the AI SDK; null when OPENAI_API_KEY is not set. */
export function openaiFactory(env: Env): ((modelId: string) => LanguageModel) | null {
  if (!env.OPENAI_API_KEY) return null
  const openai = createOpenAI({
    apiKey: env.OPENAI_API_KEY,
    baseURL: env.OPENAI_BASE_URL,
    // The streamed chunks are read by the hot loop (decision 019).
    fetch: wireFetch('openai-chat'),
  })
  // Chat Completions, not the Responses API: what gpt-3.5-turbo and most proxies speak.
  return (modelId) => openai.chat(modelId)
}
