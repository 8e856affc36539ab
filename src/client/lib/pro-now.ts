// Whether the person is Pro right now, by the one rule the server also applies (isProAt in the
// contract): a premium whose end date has passed sees the upgrade offers and may subscribe.
import { isProAt } from '#contract/plan.ts'
import type { User } from '#contract/user.ts'

export function isProNow(
  user: Pick<User, 'isPremium' | 'subscription_end_date'> | null | undefined,
  now = new Date(),
): boolean {
  return user ? isProAt(user.isPremium, user.subscription_end_date, now) : false
}
