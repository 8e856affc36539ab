import type { AppConfig } from '#contract/config.ts'
import type { Env } from '#server/env.ts'
// The chat feature's provider registry refuses exactly what this reports unavailable.
import { allModes } from '#server/features/chat/providers/availability.ts'
// POST /api/transcribe answers 503 with the same reason.
import { chooseEngine } from '#server/features/voice/engines.ts'

const on = { available: true, reason: null }
const off = (reason: string) => ({ available: false, reason })

// The engine choice looks for programs on PATH: once per environment is enough.
const engines = new WeakMap<Env, AppConfig['transcription']>()
function transcription(env: Env): AppConfig['transcription'] {
  let state = engines.get(env)
  if (!state) {
    const choice = chooseEngine(env)
    state = choice.id ? on : off(choice.reason)
    engines.set(env, state)
  }
  return state
}

/** What this deployment can do, derived from its environment (and, for voice, the programs installed). */
export function buildConfig(env: Env): AppConfig {
  return {
    modes: allModes(env),
    payments: env.STRIPE_SECRET_KEY ? on : off('Payments are not configured on this server'),
    googleSignIn:
      env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? on
        : off('Google sign-in is not configured on this server'),
    transcription: transcription(env),
  }
}
