import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { stateFromSubscriptions } from './subscription-state.ts'

const day = 86_400
function sub(id: string, status: string, created: number, extra: Partial<Stripe.Subscription> = {}) {
  return {
    id,
    status,
    created,
    start_date: created,
    cancel_at: null,
    canceled_at: null,
    ended_at: null,
    items: { data: [{ current_period_end: created + 30 * day }] },
    ...extra,
  } as unknown as Stripe.Subscription
}

describe('stateFromSubscriptions', () => {
  it('is Free with nothing at Stripe', () => {
    expect(stateFromSubscriptions([])).toEqual({
      isPremium: false,
      stripeSubscriptionId: null,
      subscriptionStatus: null,
      subscriptionStartDate: null,
      subscriptionEndDate: null,
    })
  })

  it('an active subscription is Pro until its period end', () => {
    expect(stateFromSubscriptions([sub('sub_a', 'active', 1000)])).toEqual({
      isPremium: true,
      stripeSubscriptionId: 'sub_a',
      subscriptionStatus: 'active',
      subscriptionStartDate: new Date(1000 * 1000),
      subscriptionEndDate: new Date((1000 + 30 * day) * 1000),
    })
  })

  it('a scheduled cancellation before the period end becomes the end date', () => {
    const s = stateFromSubscriptions([sub('sub_a', 'active', 1000, { cancel_at: 1000 + 10 * day })])
    expect(s.isPremium).toBe(true)
    expect(s.subscriptionEndDate).toEqual(new Date((1000 + 10 * day) * 1000))
  })

  it('past_due keeps access while Stripe retries; unpaid, incomplete and paused do not', () => {
    expect(stateFromSubscriptions([sub('sub_a', 'past_due', 1000)]).isPremium).toBe(true)
    for (const status of ['unpaid', 'incomplete', 'incomplete_expired', 'paused', 'canceled']) {
      expect(stateFromSubscriptions([sub('sub_a', status, 1000)]).isPremium, status).toBe(false)
    }
  })

  it('an ended subscription ends when Stripe ended it', () => {
    const s = stateFromSubscriptions([sub('sub_a', 'canceled', 1000, { canceled_at: 2000, ended_at: 2000 })])
    expect(s).toMatchObject({ isPremium: false, subscriptionStatus: 'canceled' })
    expect(s.subscriptionEndDate).toEqual(new Date(2000 * 1000))
  })

  it('a live subscription wins over a newer ended one, whatever the list order', () => {
    const old = sub('sub_old', 'active', 1000)
    const ended = sub('sub_new', 'canceled', 5000, { ended_at: 6000 })
    expect(stateFromSubscriptions([ended, old]).stripeSubscriptionId).toBe('sub_old')
    expect(stateFromSubscriptions([old, ended]).stripeSubscriptionId).toBe('sub_old')
  })

  it('among ended subscriptions the newest describes the past', () => {
    const a = sub('sub_a', 'canceled', 1000, { ended_at: 1500 })
    const b = sub('sub_b', 'canceled', 3000, { ended_at: 3500 })
    expect(stateFromSubscriptions([a, b]).stripeSubscriptionId).toBe('sub_b')
  })
})
