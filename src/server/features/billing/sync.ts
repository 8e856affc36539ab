import type { Logger } from 'pino'
import type { Db } from '#server/db/client.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { Payments } from './payments.ts'
import { applySubscriptionState, databaseClock } from './queries.ts'
import { isEntitled, type SubscriptionState, stateFromSubscriptions } from './subscription-state.ts'

export interface SubscriptionRead {
  state: SubscriptionState
  /** Database clock when the read from Stripe started: the version stamp of `state`. */
  readAt: string
  /** How many of the customer's subscriptions give access; more than one is a double charge. */
  entitledCount: number
}

/**
 * Reads the customer's subscriptions from Stripe now. Call it outside any transaction: a
 * network call must not hold database locks. Stripe failures become a 503.
 */
export async function readSubscriptions(
  db: Db,
  payments: Payments,
  customerId: string,
  log: Logger,
): Promise<SubscriptionRead> {
  // Stamp before the read: a read that starts later can only see a newer Stripe state.
  const readAt = await databaseClock(db)
  const subs = await payments.listSubscriptions(customerId).catch((err: unknown) => {
    log.error({ err, customerId }, 'listing subscriptions at Stripe failed')
    throw new AppError('service_unavailable:payments', 'Stripe could not be reached. Please try again.')
  })
  return {
    state: stateFromSubscriptions(subs),
    readAt,
    entitledCount: subs.filter((s) => isEntitled(s.status)).length,
  }
}

/** Reads from Stripe and stores the result on the user (unless a later read is stored). */
export async function syncUserSubscription(
  db: Db,
  payments: Payments,
  userId: string,
  customerId: string,
  log: Logger,
): Promise<SubscriptionRead> {
  const read = await readSubscriptions(db, payments, customerId, log)
  await applySubscriptionState(db, userId, read.state, read.readAt)
  return read
}
