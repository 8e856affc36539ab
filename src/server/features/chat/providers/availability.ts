// Which chat modes this deployment can serve, from its environment only. The registry refuses
// exactly what this reports unavailable, and GET /api/config shows it to the client.
import type { ChatModel } from '#contract/config.ts'
import type { Env } from '#server/env.ts'

export interface Availability {
  available: boolean
  reason: string | null
}

const on: Availability = { available: true, reason: null }
const off = (reason: string): Availability => ({ available: false, reason })

/** Where the Loris eco mode runs: an OpenAI-compatible endpoint, or Gemini's smallest model. */
export function ecoTarget(env: Env): 'endpoint' | 'gemini' | 'partial' | 'none' {
  if (env.ECO_BASE_URL && env.ECO_MODEL) return 'endpoint'
  // Half a configuration is a mistake; falling back to Gemini would hide it.
  if (env.ECO_BASE_URL || env.ECO_MODEL) return 'partial'
  return env.GEMINI_API_KEY ? 'gemini' : 'none'
}

export function modeAvailability(env: Env, mode: ChatModel): Availability {
  if (mode === 'gemini')
    return env.GEMINI_API_KEY ? on : off('Gemini is not configured on this server (set GEMINI_API_KEY)')
  if (mode === 'chatgpt')
    return env.OPENAI_API_KEY ? on : off('ChatGPT is not configured on this server (set OPENAI_API_KEY)')
  switch (ecoTarget(env)) {
    case 'endpoint':
    case 'gemini':
      return on
    case 'partial':
      return off(
        `The Loris eco model is half configured (set both ECO_BASE_URL and ECO_MODEL; ${env.ECO_BASE_URL ? 'ECO_MODEL' : 'ECO_BASE_URL'} is missing)`,
      )
    default:
      return off('The Loris eco model is not configured (set ECO_BASE_URL and ECO_MODEL, or GEMINI_API_KEY)')
  }
}

export function allModes(env: Env): Record<ChatModel, Availability> {
  return {
    gemini: modeAvailability(env, 'gemini'),
    loris: modeAvailability(env, 'loris'),
    chatgpt: modeAvailability(env, 'chatgpt'),
  }
}
