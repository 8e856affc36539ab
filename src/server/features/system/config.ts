import type { AppConfig } from '#contract/config.ts'
import type { Env } from '#server/env.ts'
// The chat feature's provider registry refuses exactly what this reports unavailable.
import { allModes } from '#server/features/chat/providers/availability.ts'

const on = { available: true, reason: null }
const off = (reason: string) => ({ available: false, reason })

/** What this deployment can do, derived from its environment only (no I/O). */
export function buildConfig(env: Env): AppConfig {
  return {
    modes: allModes(env),
    payments: env.STRIPE_SECRET_KEY ? on : off('Payments are not configured on this server'),
    googleSignIn:
      env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? on
        : off('Google sign-in is not configured on this server'),
    transcription: on,
  }
}
