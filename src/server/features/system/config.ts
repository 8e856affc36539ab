import type { AppConfig } from '#contract/config.ts'
import type { Env } from '#server/env.ts'

const on = { available: true, reason: null }
const off = (reason: string) => ({ available: false, reason })

/** What this deployment can do, derived from its environment only (no I/O). */
export function buildConfig(env: Env): AppConfig {
  const gemini = Boolean(env.GEMINI_API_KEY)
  const openai = Boolean(env.OPENAI_API_KEY)
  const eco = Boolean(env.ECO_BASE_URL && env.ECO_MODEL)
  return {
    modes: {
      gemini: gemini ? on : off('Gemini is not configured on this server (set GEMINI_API_KEY)'),
      chatgpt: openai ? on : off('ChatGPT is not configured on this server (set OPENAI_API_KEY)'),
      loris:
        eco || gemini
          ? on
          : off('The Loris eco model is not configured (set ECO_BASE_URL and ECO_MODEL, or GEMINI_API_KEY)'),
    },
    payments: env.STRIPE_SECRET_KEY ? on : off('Payments are not configured on this server'),
    googleSignIn:
      env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? on
        : off('Google sign-in is not configured on this server'),
    transcription: on,
  }
}
