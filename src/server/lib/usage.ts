// Usage tiers and limits (spec section 4 'Displayed current model', section 9). Pure functions:
// the caller reads the user row and the clock, these decide.
import { PLAN_LIMITS } from '#contract/plan.ts'
import { isProAt } from '#contract/user.ts'

export const USAGE_RESET_DAYS = 30
const DAY_MS = 86_400_000

export const FREE_PRO_BELOW = 20_000
export const FREE_LIMIT = PLAN_LIMITS.free.charsPer30Days
export const PREMIUM_PRO_BELOW = 500_000
export const PREMIUM_LIMIT = PLAN_LIMITS.premium.charsPer30Days

export type Plan = 'free' | 'premium'

/** Which Gemini model a usage tier gets: env GEMINI_MODEL_PRO, _FLASH_LITE or _PREMIUM_FALLBACK. */
export type GeminiTier = 'pro' | 'flash-lite' | 'premium-fallback'

export interface UsageFields {
  isPremium: boolean
  subscriptionEndDate: Date | null
  aiInputChars: number
  aiOutputChars: number
  lastAiUsageReset: Date
}

/** Premium whose end date has passed counts as free, as the account tab shows it (spec 4). */
export function planOf(user: Pick<UsageFields, 'isPremium' | 'subscriptionEndDate'>, now: Date): Plan {
  return isProAt(user.isPremium, user.subscriptionEndDate, now) ? 'premium' : 'free'
}

export function usageOf(user: Pick<UsageFields, 'aiInputChars' | 'aiOutputChars'>): number {
  return user.aiInputChars + user.aiOutputChars
}

export function nextResetAt(lastReset: Date): Date {
  return new Date(lastReset.getTime() + USAGE_RESET_DAYS * DAY_MS)
}

/** Usage resets lazily: the first send 30 days after the last reset starts from zero. */
export function resetIsDue(lastReset: Date, now: Date): boolean {
  return now.getTime() >= nextResetAt(lastReset).getTime()
}

export interface Tier {
  plan: Plan
  used: number
  limit: number
  exceeded: boolean
  gemini: GeminiTier
  /** Usage below which the plan gets Gemini's pro model. */
  proBelow: number
}

export function tierOf(user: UsageFields, now: Date): Tier {
  const plan = planOf(user, now)
  const used = usageOf(user)
  const free = plan === 'free'
  const limit = free ? FREE_LIMIT : PREMIUM_LIMIT
  const proBelow = free ? FREE_PRO_BELOW : PREMIUM_PRO_BELOW
  const gemini = used < proBelow ? 'pro' : free ? 'flash-lite' : 'premium-fallback'
  return { plan, used, limit, exceeded: used >= limit, gemini, proBelow }
}

/** The refusal text; the date is the UTC calendar day of the next reset (YYYY-MM-DD). */
export function limitMessage(plan: Plan, lastReset: Date): string {
  const date = nextResetAt(lastReset).toISOString().slice(0, 10)
  return plan === 'free'
    ? `Free usage limit exceeded; resets on ${date}`
    : `Premium usage limit exceeded; resets on ${date}`
}

/** Seconds until the next reset, for Retry-After. */
export function secondsUntilReset(lastReset: Date, now: Date): number {
  return Math.max(1, Math.ceil((nextResetAt(lastReset).getTime() - now.getTime()) / 1000))
}

/**
 * Characters a send adds to aiInputChars: what the user wrote plus any text extracted from an
 * attachment. History and the system prompt are not charged (they are ours to budget, not the user's).
 */
export function inputCharsOf(input: { content: string; extractedText?: string | null }): number {
  return input.content.length + (input.extractedText?.length ?? 0)
}
