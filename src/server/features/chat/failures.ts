// Turns what went wrong during a reply into the words a person reads. Provider error bodies are
// logged by the caller, never shown: they can carry URLs, ids or quota details.
import { APICallError } from 'ai'
import { type ChatErrorCode, chatErrorCodes } from '#contract/chat-events.ts'
import type { ReplyFamily } from '#contract/models.ts'
import { EcoUnavailableError } from '#server/features/eco-engine/engine.ts'
import { ecoFailureMessage } from '#server/features/eco-engine/messages.ts'
import type { ReplyOutcome } from './finalize.ts'

const labels: Record<ReplyFamily, string> = {
  gemini: 'Gemini',
  chatgpt: 'ChatGPT',
  loris: 'The Loris eco model',
  claude: 'Claude',
  mistral: 'Mistral',
  other: 'The model',
}

export type Ending =
  | { kind: 'finished' }
  | { kind: 'stopped' }
  | { kind: 'timeout' }
  | { kind: 'error'; error: unknown }

export interface Classified {
  outcome: ReplyOutcome
  /** null for a clean end (complete, or stopped by the user). */
  code: ChatErrorCode | null
}

function upstreamMessage(label: string, error: unknown): string {
  const status = APICallError.isInstance(error) ? error.statusCode : undefined
  if (status === 401 || status === 403)
    return `${label} refused this server's credentials. Please tell the site administrator.`
  if (status === 429) return `${label} is busy right now. Please try again in a moment.`
  return `${label} could not answer right now. Please try again.`
}

export function classify(mode: ReplyFamily, ending: Ending, text: string): Classified {
  const label = labels[mode]
  const partial = text.length > 0
  const cut = (code: ChatErrorCode, errorMessage: string): Classified => ({
    outcome: { status: partial ? 'interrupted' : 'failed', response: text, errorMessage },
    code,
  })
  switch (ending.kind) {
    case 'stopped':
      return { outcome: { status: 'interrupted', response: text, errorMessage: null }, code: null }
    case 'timeout':
      return cut(
        chatErrorCodes.timeout,
        partial ? `${label} took too long; what arrived is kept.` : `${label} took too long to answer.`,
      )
    case 'error':
      // The in-process eco model could not be fetched or loaded: say why, in plain words.
      if (ending.error instanceof EcoUnavailableError && !partial)
        return cut(chatErrorCodes.unconfigured, ecoFailureMessage(ending.error.failure))
      return partial
        ? cut(
            chatErrorCodes.interrupted,
            `${label} stopped answering part-way; what arrived is kept. Please try again.`,
          )
        : cut(chatErrorCodes.upstream, upstreamMessage(label, ending.error))
    default:
      if (!partial) return cut(chatErrorCodes.empty, `${label} sent an empty reply. Please try again.`)
      return { outcome: { status: 'complete', response: text, errorMessage: null }, code: null }
  }
}

/** What of a provider error goes to the log: never the request body (it holds the user's text). */
export function loggableError(error: unknown): Record<string, unknown> {
  if (APICallError.isInstance(error)) {
    return {
      name: error.name,
      message: error.message,
      statusCode: error.statusCode,
      url: error.url,
      responseBody: error.responseBody?.slice(0, 500),
      cause: error.cause instanceof Error ? error.cause.message : undefined,
    }
  }
  return error instanceof Error ? { name: error.name, message: error.message } : { value: String(error) }
}
