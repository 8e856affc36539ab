import type { User } from '#contract/user.ts'
import type { Env } from '#server/env.ts'
import type { UserRow } from './context.ts'
import { operatorSource } from './roles.ts'

/** The user as the client sees it (spec section 3): never the hash or Stripe ids. */
export function toUserJson(u: UserRow, env: Pick<Env, 'ADMIN_EMAILS'>): User {
  return {
    id: u.id,
    email: u.email,
    emailVerified: u.emailVerifiedAt !== null,
    googleId: u.googleId,
    isPremium: u.isPremium,
    subscription_start_date: u.subscriptionStartDate?.toISOString() ?? null,
    subscription_end_date: u.subscriptionEndDate?.toISOString() ?? null,
    createdAt: u.createdAt.toISOString(),
    co2Saved: u.co2Saved,
    treesPlanted: u.treesPlanted,
    aiInputChars: u.aiInputChars,
    aiOutputChars: u.aiOutputChars,
    aiUsageStartDate: u.aiUsageStartDate.toISOString(),
    lastAiUsageReset: u.lastAiUsageReset.toISOString(),
    operator: operatorSource(env, u) !== null,
  }
}
