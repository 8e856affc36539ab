import type { AppConfig } from '#contract/config.ts'
import type { Env } from '#server/env.ts'
import type { EcoEngine } from '#server/features/eco-engine/engine.ts'
// The model registry refuses exactly what this reports unavailable.
import { allModes, defaultChatModel } from '#server/features/models/availability.ts'
// POST /api/transcribe answers 503 with the same reason.
import { chooseEngine } from '#server/features/voice/engines.ts'
import { VOICE_UNAVAILABLE } from '#server/features/voice/transcriber.ts'

const on = { available: true, reason: null }
const off = (reason: string) => ({ available: false, reason })

// The engine choice looks for programs on PATH: once per environment is enough.
const engines = new WeakMap<Env, AppConfig['transcription']>()
function transcription(env: Env): AppConfig['transcription'] {
  let state = engines.get(env)
  if (!state) {
    const choice = chooseEngine(env)
    // The cause (choice.reason) names settings: it goes to the start-up table, not to people.
    state = choice.id ? on : off(VOICE_UNAVAILABLE)
    engines.set(env, state)
  }
  return state
}

/**
 * What this deployment can do, derived from its environment (for voice, the programs installed;
 * for the eco mode, the in-process engine's state).
 */
export function buildConfig(env: Env, engine: EcoEngine | null = null): AppConfig {
  const status = engine?.status() ?? null
  const modes = allModes(env, status)
  return {
    modes,
    defaultChatModel: defaultChatModel(modes),
    ecoEngine: status && {
      state: status.state,
      bytes: status.bytes,
      totalBytes: status.totalBytes,
      percent: status.percent,
    },
    payments: env.STRIPE_SECRET_KEY ? on : off('Payments are not configured on this server'),
    googleSignIn:
      env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? on
        : off('Google sign-in is not configured on this server'),
    transcription: transcription(env),
    webSearch:
      env.SEARXNG_URL || env.BRAVE_SEARCH_API_KEY || env.TAVILY_API_KEY
        ? on
        : off('Web search is not configured on this server'),
  }
}
