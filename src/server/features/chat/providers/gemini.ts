import { createGoogleGenerativeAI } from '@ai-sdk/google'
import type { LanguageModel } from 'ai'
import type { Env } from '#server/env.ts'
import { wireFetch } from '../wire/wire-fetch.ts'

/** Google Gemini through the AI SDK; null when GEMINI_API_KEY is not set. */
export function geminiFactory(env: Env): ((modelId: string) => LanguageModel) | null {
  if (!env.GEMINI_API_KEY) return null
  // An explicit key always: the SDK would otherwise read GOOGLE_GENERATIVE_AI_API_KEY.
  const google = createGoogleGenerativeAI({
    apiKey: env.GEMINI_API_KEY,
    baseURL: env.GEMINI_BASE_URL,
    // The streamed chunks are read by the hot loop (decision 019).
    fetch: wireFetch('gemini'),
  })
  return (modelId) => google(modelId)
}
