// Applies one verified Stripe event. Stripe delivers at least once and in any order, so an
// event is only a hint of WHICH customer changed: the state written is read from Stripe now
// (decision 004), and the event id is recorded in the same transaction as that write.
import type { Logger } from 'pino'
import type Stripe from 'stripe'
import { z } from 'zod'
import type { WebhookAnswer } from '#contract/billing.ts'
import type { Db } from '#server/db/client.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { UserRow } from '#server/lib/context.ts'
import type { Payments } from './payments.ts'
import {
  applySubscriptionState,
  claimCustomer,
  findUserByCustomer,
  findUserById,
  isEventRecorded,
  recordEvent,
} from './queries.ts'
import { isOpen } from './subscription-state.ts'
import { readSubscriptions } from './sync.ts'

export const HANDLED_EVENTS = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
])

// A signature proves who sent the bytes, not that they have the shape the SDK's types promise:
// every field read is checked here, so a malformed event is a 400 (or ignored), never a 500.
const STRIPE_ID = /^[\x21-\x7e]{1,255}$/
const eventEnvelope = z.object({
  id: z.string().regex(STRIPE_ID),
  type: z.string().max(255),
  // Seconds; bounded so it always makes a valid date.
  created: z.number().int().min(0).max(32_503_680_000),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
})

const idOf = (ref: unknown): string | null => {
  const id = ref && typeof ref === 'object' ? (ref as { id?: unknown }).id : ref
  return typeof id === 'string' && STRIPE_ID.test(id) ? id : null
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const uuidOrNull = (v: unknown): string | null => (typeof v === 'string' && UUID.test(v) ? v : null)

/** The customer the event is about, and the user id we put in its metadata at checkout. */
function eventTarget(event: Stripe.Event): { customerId: string | null; userId: string | null } {
  const object = event.data.object as unknown as Record<string, unknown>
  const meta = (m: unknown) =>
    m && typeof m === 'object' ? uuidOrNull((m as Record<string, unknown>).userId) : null
  switch (event.type) {
    case 'checkout.session.completed': {
      const s = object as unknown as Stripe.Checkout.Session
      return { customerId: idOf(s.customer), userId: uuidOrNull(s.client_reference_id) ?? meta(s.metadata) }
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const i = object as unknown as Stripe.Invoice
      const parent = i.parent && typeof i.parent === 'object' ? i.parent : null
      const details = parent?.subscription_details
      return {
        customerId: idOf(i.customer),
        userId: meta(details && typeof details === 'object' ? details.metadata : null),
      }
    }
    default: {
      const s = object as unknown as Stripe.Subscription
      return { customerId: idOf(s.customer), userId: meta(s.metadata) }
    }
  }
}

/**
 * The user the customer belongs to. The customer id is stored before any checkout exists, so
 * the metadata fallback only adopts a customer for a user that has none (never moves one).
 */
async function findOwner(db: Db, customerId: string, userId: string | null): Promise<UserRow | undefined> {
  const owner = await findUserByCustomer(db, customerId)
  if (owner || !userId) return owner
  const user = await findUserById(db, userId)
  if (!user || user.stripeCustomerId) return undefined
  return (await claimCustomer(db, user.id, customerId)) === customerId ? user : undefined
}

async function cancelOrphanedSubscriptions(payments: Payments, customerId: string, log: Logger) {
  try {
    const open = (await payments.listSubscriptions(customerId)).filter((s) => isOpen(s.status))
    for (const sub of open) await payments.cancelSubscription(sub.id)
    if (open.length > 0)
      log.warn(
        { customerId, subscriptions: open.map((s) => s.id) },
        'subscription of a deleted account canceled',
      )
  } catch (err) {
    log.error({ err, customerId }, 'canceling the subscription of a deleted account failed')
    throw new AppError(
      'bad_gateway:payments',
      'The subscription of a deleted account could not be cancelled yet',
    )
  }
}

export async function handleStripeEvent(
  db: Db,
  payments: Payments,
  event: Stripe.Event,
  log: Logger,
): Promise<WebhookAnswer> {
  const type = (event as { type?: unknown } | null)?.type
  if (typeof type !== 'string' || !HANDLED_EVENTS.has(type)) {
    log.debug(
      { eventType: typeof type === 'string' ? type.slice(0, 100) : null },
      'stripe event type not handled',
    )
    return { received: true, ignored: 'unhandled_type' }
  }
  if (!eventEnvelope.safeParse(event).success) {
    log.warn({ eventType: type }, 'signed stripe event is malformed; refused')
    throw new AppError('bad_request:event', 'The event is not a well-formed Stripe event')
  }
  const l = log.child({ eventId: event.id, eventType: event.type })
  // Cheap early exit for redeliveries; recordEvent below is what actually guarantees once.
  if (await isEventRecorded(db, event.id)) return { received: true, ignored: 'duplicate' }

  const { customerId, userId } = eventTarget(event)
  const owner = customerId ? await findOwner(db, customerId, userId) : undefined
  // Ours (the user id our Checkout put in its metadata) for an account that is gone: a Checkout
  // paid as the account was deleted. Nobody can see or cancel it any more, so it is cancelled
  // here; Stripe retries the event if that fails.
  if (!owner && customerId && userId && !(await findUserById(db, userId)))
    await cancelOrphanedSubscriptions(payments, customerId, l)
  if (!owner || !customerId) {
    // Deleted accounts, other products on the same Stripe account, one-off checkouts.
    l.warn({ customerId }, 'stripe event for no Loris user; recorded and ignored')
    const fresh = await recordEvent(db, event)
    return { received: true, ignored: fresh ? 'unknown_customer' : 'duplicate' }
  }

  // Read Stripe's current state before the transaction: no lock is held across the network.
  const read = await readSubscriptions(db, payments, customerId, l)
  if (read.entitledCount > 1) {
    l.error({ userId: owner.id, customerId }, 'customer has more than one live subscription: refund one')
  }
  const fresh = await recordEvent(db, event, (tx) =>
    applySubscriptionState(tx, owner.id, read.state, read.readAt),
  )
  if (!fresh) return { received: true, ignored: 'duplicate' }
  l.info(
    { userId: owner.id, isPremium: read.state.isPremium, status: read.state.subscriptionStatus },
    'subscription state synced from stripe',
  )
  return { received: true }
}
