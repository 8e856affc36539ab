import { isProNow } from '#client/lib/pro-now.ts'
import type { User } from '#contract/user.ts'

/** Spec section 4 'Account type shown'. */
export function accountTypeLabel(
  user: Pick<User, 'isPremium' | 'subscription_end_date'>,
  now = new Date(),
): string {
  if (!isProNow(user, now)) return 'Free'
  if (!user.subscription_end_date) return 'Premium'
  const end = new Date(user.subscription_end_date)
  return `Premium (Active until ${end.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })})`
}
