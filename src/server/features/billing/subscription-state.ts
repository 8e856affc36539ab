import type Stripe from 'stripe'

/** The subscription fields stored on the user (users table), derived from Stripe only. */
export interface SubscriptionState {
  isPremium: boolean
  stripeSubscriptionId: string | null
  subscriptionStatus: string | null
  subscriptionStartDate: Date | null
  subscriptionEndDate: Date | null
}

// past_due keeps access while Stripe retries the card (Smart Retries); when the retries run out
// Stripe moves the subscription to canceled or unpaid and access ends (decision 004).
const ENTITLED = new Set<string>(['active', 'trialing', 'past_due'])

export const isEntitled = (status: string) => ENTITLED.has(status)

/** Subscriptions that can still charge the customer: what account deletion must cancel. */
export const isOpen = (status: string) => status !== 'canceled' && status !== 'incomplete_expired'

const date = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null)

// Since API version 2025-03-31 the billing period lives on each item.
function periodEnd(sub: Stripe.Subscription): number | null {
  const ends = sub.items.data.map((i) => i.current_period_end).filter((n) => Number.isFinite(n))
  return ends.length > 0 ? Math.max(...ends) : null
}

/**
 * The user's state from ALL of a customer's subscriptions as Stripe holds them now, so the
 * result never depends on which webhook arrived last (decision 004). An entitling subscription
 * wins over ended ones; otherwise the newest one describes the past subscription.
 */
export function stateFromSubscriptions(subs: readonly Stripe.Subscription[]): SubscriptionState {
  const newestFirst = [...subs].sort((a, b) => b.created - a.created)
  const sub = newestFirst.find((s) => isEntitled(s.status)) ?? newestFirst[0]
  if (!sub) {
    return {
      isPremium: false,
      stripeSubscriptionId: null,
      subscriptionStatus: null,
      subscriptionStartDate: null,
      subscriptionEndDate: null,
    }
  }
  const entitled = isEntitled(sub.status)
  const end = periodEnd(sub)
  // Paid through the period end; a scheduled cancellation ends it earlier; an ended one ended.
  const endSeconds = entitled
    ? Math.min(end ?? Number.POSITIVE_INFINITY, sub.cancel_at ?? Number.POSITIVE_INFINITY)
    : (sub.ended_at ?? sub.canceled_at ?? end)
  return {
    isPremium: entitled,
    stripeSubscriptionId: sub.id,
    subscriptionStatus: sub.status,
    subscriptionStartDate: date(sub.start_date),
    subscriptionEndDate: Number.isFinite(endSeconds) ? date(endSeconds) : null,
  }
}
