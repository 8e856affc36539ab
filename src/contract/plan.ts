// Free or Pro, without zod: the chat's first load shows which (decision 044; user.ts re-exports it).

/**
 * Whether a person is Pro at `now` (spec section 4 'Account type shown'): premium with no end
 * date, or one still to come. Premium past its end date is free everywhere: the server's limits
 * and subscription checks, and the client's badges and upgrade offers. The end date is a `Date`
 * on the server and the contract's ISO string on the client.
 */
export function isProAt(isPremium: boolean, endDate: Date | string | null | undefined, now: Date): boolean {
  if (!isPremium) return false
  return !endDate || new Date(endDate).getTime() > now.getTime()
}

/**
 * Each plan's limits as the product sets them (spec section 9): characters per 30 days, sends per
 * minute, replies being written at once. An operator may set others in the console (plan_limits,
 * read by the statement that admits each send); these stay the defaults.
 */
export const PLAN_LIMITS = {
  free: { charsPer30Days: 100_000, sendsPerMinute: 20, repliesAtOnce: 3 },
  premium: { charsPer30Days: 1_000_000, sendsPerMinute: 20, repliesAtOnce: 3 },
} as const
