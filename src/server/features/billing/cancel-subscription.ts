import { AppError } from '#server/lib/app-error.ts'
import type { AppDeps, UserRow } from '#server/lib/context.ts'
import { paymentsFor } from './payments.ts'
import { isOpen } from './subscription-state.ts'
import { syncUserSubscription } from './sync.ts'

/**
 * Cancels, immediately, every subscription of the user's customer that can still charge them,
 * and first expires the Checkout pages they opened and did not pay (open for a day: paid after
 * the account was gone, one started a subscription nobody could see or cancel): called before
 * an account is deleted, so nobody pays for an account that no longer exists.
 * Asks Stripe rather than trusting the stored id, which a late webhook may not have filled in.
 * No-op without Stripe or without a customer. Throws (502) when Stripe cannot confirm, so the
 * caller keeps the account rather than leave a paying subscription behind.
 */
export async function cancelSubscriptionForUser(
  deps: AppDeps,
  user: Pick<UserRow, 'id' | 'stripeCustomerId'>,
): Promise<{ canceled: string[] }> {
  const payments = paymentsFor(deps.env)
  const customerId = user.stripeCustomerId
  if (!payments || !customerId) return { canceled: [] }
  const log = deps.log.child({ userId: user.id, customerId })
  try {
    const expired = await payments.expireOpenCheckouts(customerId)
    if (expired.length > 0) log.info({ checkouts: expired }, 'open checkouts expired for account deletion')
    const subs = await payments.listSubscriptions(customerId)
    const open = subs.filter((s) => isOpen(s.status)).map((s) => s.id)
    for (const id of open) await payments.cancelSubscription(id)
    if (open.length > 0) {
      log.info({ subscriptions: open }, 'subscriptions canceled for account deletion')
      await syncUserSubscription(deps.database.db, payments, user.id, customerId, log)
    }
    return { canceled: open }
  } catch (err) {
    log.error({ err }, 'canceling subscriptions at Stripe failed')
    throw new AppError(
      'bad_gateway:payments',
      'Your Loris Pro subscription could not be cancelled right now, so your account was kept. Please try again in a moment.',
    )
  }
}
