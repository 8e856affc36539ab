// The composer's estimate of what the message about to be sent will emit, computed in the browser
// from GET /api/models (grams per generated token of each mode's and model's) and the text: no
// request per keystroke. EcoLogits prices generated tokens, so the estimate is of the reply's
// length: a base answer, longer for a longer question and a longer conversation behind it.
import type { ChatModel } from '#contract/config.ts'
import type { ModelsResponse } from '#contract/models.ts'
import { modeLabels } from './chat-mode.ts'

/** Tokens of a reply to a one-line question, and the most a reply is expected to run to. */
const BASE_REPLY_TOKENS = 150
const MAX_REPLY_TOKENS = 2_000
const CHARS_PER_TOKEN = 4
/** A suggestion is worth making when another choice emits at most this share of the chosen one. */
export const SUGGEST_BELOW = 0.5

export function expectedReplyTokens(promptChars: number, historyChars: number): number {
  const prompt = promptChars / CHARS_PER_TOKEN
  const history = historyChars / CHARS_PER_TOKEN
  return Math.min(MAX_REPLY_TOKENS, Math.round(BASE_REPLY_TOKENS + prompt / 2 + history / 10))
}

export interface Choice {
  /** A catalogue model's id, or null for the mode's own. */
  model: string | null
  mode: ChatModel
  name: string
  gramsPerToken: number
}

/** Every choice this person has with a known footprint: the available modes, then the models. */
export function choicesOf(data: ModelsResponse | undefined): Choice[] {
  if (!data) return []
  const modes = data.modes.flatMap((m) =>
    m.gramsPerToken === null
      ? []
      : [{ model: null, mode: m.mode, name: modeLabels[m.mode], gramsPerToken: m.gramsPerToken }],
  )
  const models = data.models.flatMap((m) =>
    m.gramsPerToken === null
      ? []
      : [{ model: m.id, mode: 'gemini' as const, name: m.name, gramsPerToken: m.gramsPerToken }],
  )
  return [...modes, ...models]
}

export interface Estimate {
  grams: number
  /** A choice that would emit markedly less (SUGGEST_BELOW), the least-emitting one. */
  suggestion: (Choice & { grams: number }) | null
}

export function estimateFootprint(
  data: ModelsResponse | undefined,
  chosen: { mode: ChatModel; model: string | null },
  promptChars: number,
  historyChars: number,
): Estimate | null {
  const choices = choicesOf(data)
  const current = chosen.model
    ? choices.find((c) => c.model === chosen.model)
    : choices.find((c) => c.model === null && c.mode === chosen.mode)
  if (!current) return null
  const tokens = expectedReplyTokens(promptChars, historyChars)
  const grams = current.gramsPerToken * tokens
  const best = choices
    .filter((c) => c !== current && c.gramsPerToken <= current.gramsPerToken * SUGGEST_BELOW)
    .sort((a, b) => a.gramsPerToken - b.gramsPerToken)[0]
  return { grams, suggestion: best ? { ...best, grams: best.gramsPerToken * tokens } : null }
}
