// Spec section 4 'Displayed current model' and 'Chat engine label', section 9 'Next Reset'.
// Pure: the Consumption tab passes the user, the stored mode flags and the clock.

import { isProNow } from '#client/lib/pro-now.ts'
import type { User } from '#contract/user.ts'

// Spec section 3 'Local storage': the chat mode flags the composer menu writes.
const ECO_MODE_KEY = 'chat-eco-mode'
const USE_OPENAI_KEY = 'chat-use-openai'

const USAGE_RESET_DAYS = 30
const DAY_MS = 86_400_000

export interface ModeFlags {
  isEcoMode: boolean
  useOpenAI: boolean
}

type UsageUser = Pick<User, 'isPremium' | 'subscription_end_date' | 'aiInputChars' | 'aiOutputChars'>

/** Usage is aiInputChars plus aiOutputChars. */
export function usageTotal(user: Pick<User, 'aiInputChars' | 'aiOutputChars'>): number {
  return user.aiInputChars + user.aiOutputChars
}

/** lastAiUsageReset + 30 days. */
export function nextReset(user: Pick<User, 'lastAiUsageReset'>): Date {
  return new Date(new Date(user.lastAiUsageReset).getTime() + USAGE_RESET_DAYS * DAY_MS)
}

/** The server resets usage at the first send after Next Reset; until then the old totals stand. */
export function resetIsDue(user: Pick<User, 'lastAiUsageReset'>, now: Date): boolean {
  return now.getTime() >= nextReset(user).getTime()
}

/** The model the next message is answered with, as the Consumption tab names it. */
export function displayedCurrentModel(
  user: UsageUser,
  flags: Pick<ModeFlags, 'useOpenAI'>,
  now: Date,
): string {
  if (flags.useOpenAI) return 'GPT-3.5 Turbo'
  const used = usageTotal(user)
  if (isProNow(user, now)) {
    if (used < 500_000) return 'Gemini 2.5 Pro'
    if (used < 1_000_000) return 'Gemini 2.0 Flash'
    return 'Premium Usage Limit Exceeded'
  }
  if (used < 20_000) return 'Gemini 2.5 Pro'
  if (used < 100_000) return 'Gemini 2.5 Flash Lite'
  return 'Free Usage Limit Exceeded'
}

/** ChatGPT when the OpenAI option is on; otherwise the eco (Loris) label when eco mode is on; otherwise Gemini. */
export function chatEngineLabel(flags: ModeFlags): string {
  if (flags.useOpenAI) return 'ChatGPT'
  return flags.isEcoMode ? 'Loris eco' : 'Gemini'
}

function storedFlag(storage: Pick<Storage, 'getItem'>, key: string): boolean {
  try {
    return JSON.parse(storage.getItem(key) ?? 'false') === true
  } catch {
    return false
  }
}

/** The mode flags as the chat left them; anything but a stored `true` is off. */
export function readModeFlags(storage: Pick<Storage, 'getItem'> = localStorage): ModeFlags {
  return { isEcoMode: storedFlag(storage, ECO_MODE_KEY), useOpenAI: storedFlag(storage, USE_OPENAI_KEY) }
}
