// Which chat modes this deployment can serve, from its environment and the eco engine's state.
// The registry refuses exactly what this reports unavailable, and GET /api/config shows it to
// the client. Reasons are for end users: plain words, never an environment variable (the
// start-up table in the log names those, system/startup-report.ts).
import type { ChatModel } from '#contract/config.ts'
import type { Env } from '#server/env.ts'
import type { EcoEngineStatus } from '#server/features/eco-engine/engine.ts'
import { ecoFailureMessage, NOT_ON_THIS_SERVER } from '#server/features/eco-engine/messages.ts'
import { ecoSource } from '#server/features/eco-engine/settings.ts'

export interface Availability {
  available: boolean
  reason: string | null
}

const on: Availability = { available: true, reason: null }
const off = (reason: string): Availability => ({ available: false, reason })

/**
 * @param eco the in-process engine's status when the eco mode runs in process: a failed
 *   preparation makes the mode unavailable with what went wrong, in plain words.
 */
export function modeAvailability(env: Env, mode: ChatModel, eco?: EcoEngineStatus | null): Availability {
  if (mode === 'gemini') return env.GEMINI_API_KEY ? on : off(NOT_ON_THIS_SERVER('Gemini'))
  if (mode === 'chatgpt') return env.OPENAI_API_KEY ? on : off(NOT_ON_THIS_SERVER('ChatGPT'))
  switch (ecoSource(env)) {
    case 'endpoint':
      return on
    case 'file':
    case 'download':
      return eco?.state === 'failed' && eco.failure ? off(ecoFailureMessage(eco.failure)) : on
    default:
      return off(NOT_ON_THIS_SERVER('The Loris eco model'))
  }
}

export function allModes(env: Env, eco?: EcoEngineStatus | null): Record<ChatModel, Availability> {
  return {
    gemini: modeAvailability(env, 'gemini', eco),
    loris: modeAvailability(env, 'loris', eco),
    chatgpt: modeAvailability(env, 'chatgpt', eco),
  }
}

/** The mode a person without a usable one gets: Gemini, else the eco model, else ChatGPT. */
export function defaultChatModel(modes: Record<ChatModel, Availability>): ChatModel | null {
  const order: ChatModel[] = ['gemini', 'loris', 'chatgpt']
  return order.find((m) => modes[m].available) ?? null
}
