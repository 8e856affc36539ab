// Whether the person is Pro right now (spec section 4 'Account type shown'): premium with no end
// date, or one still to come. A premium whose end date has passed is free, as the server treats
// it (planOf in src/server/features/chat/usage.ts): it sees the upgrade offers and may subscribe.
import type { User } from '#contract/user.ts'

export function isProNow(
  user: Pick<User, 'isPremium' | 'subscription_end_date'> | null | undefined,
  now = new Date(),
): boolean {
  if (!user?.isPremium) return false
  return !user.subscription_end_date || new Date(user.subscription_end_date).getTime() > now.getTime()
}
