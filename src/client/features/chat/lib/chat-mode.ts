// Chat modes (spec sections 1 and 4): the two stored flags, the mode they mean and the chatModel
// a reply carries. Pure, so the mapping is tested once and used everywhere.
import type { AppConfig, ChatModel } from '#contract/config.ts'

export interface ModeFlags {
  isEcoMode: boolean
  useOpenAI: boolean
}

export const ECO_MODE_KEY = 'chat-eco-mode'
export const USE_OPENAI_KEY = 'chat-use-openai'

export const modeLabels: Record<ChatModel, string> = {
  gemini: 'Gemini',
  loris: 'Loris eco',
  chatgpt: 'ChatGPT',
}

/** chatgpt if the OpenAI option is set, loris if eco mode is on, otherwise gemini. */
export function modelFromFlags({ isEcoMode, useOpenAI }: ModeFlags): ChatModel {
  if (useOpenAI) return 'chatgpt'
  return isEcoMode ? 'loris' : 'gemini'
}

/** Selecting a thread sets the mode from its chatModel; anything unknown gives gemini. */
export function flagsFromModel(model: string | null | undefined): ModeFlags {
  if (model === 'chatgpt') return { isEcoMode: false, useOpenAI: true }
  if (model === 'loris') return { isEcoMode: true, useOpenAI: false }
  return { isEcoMode: false, useOpenAI: false }
}

/** A stored boolean flag; anything but a stored `true` reads as off. */
export function parseStoredFlag(raw: string | null): boolean {
  if (raw === null) return false
  try {
    return JSON.parse(raw) === true
  } catch {
    return false
  }
}

/**
 * The reply's left border (spec section 1): black for chatgpt, green for loris, white otherwise.
 * Black on the near-black page is invisible (1.06:1), so the black bar is outlined in grey on
 * both sides (#a1a1aa, 7.8:1 against the page) and stays black.
 */
export function borderClassFor(model: string | null | undefined): string {
  if (model === 'chatgpt') return 'border-l-[#000000] shadow-[-1px_0_0_0_#a1a1aa,inset_1px_0_0_0_#a1a1aa]'
  if (model === 'loris') return 'border-l-[#22c55e]'
  return 'border-l-[#ffffff]'
}

/**
 * The mode a send uses: the stored one when this server can serve it; otherwise (or with none
 * stored) the server's default; the stored one again when there is no default (sending is then
 * disabled with the reason). Before the config arrives, the stored mode.
 */
export function resolveMode(
  stored: ChatModel | null,
  config: Pick<AppConfig, 'modes' | 'defaultChatModel'> | undefined,
): ChatModel {
  const fallback = stored ?? 'gemini'
  if (!config) return fallback
  if (stored && config.modes[stored]?.available) return stored
  return config.defaultChatModel ?? fallback
}

export const NO_MODE_REASON = 'No chat mode is available on this server yet'

/** Why a send in `model` cannot go now, in plain words; null when it can. */
export function sendBlockedReason(
  model: ChatModel,
  config: Pick<AppConfig, 'modes' | 'defaultChatModel'> | undefined,
): string | null {
  if (!config) return null
  const availability = config.modes[model]
  if (availability?.available) return null
  if (config.defaultChatModel === null) return NO_MODE_REASON
  return availability?.reason ?? `${modeLabels[model]} is not available on this server`
}
