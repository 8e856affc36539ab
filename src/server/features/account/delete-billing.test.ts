// Account deletion as app.ts composes it with billing: the subscription is cancelled at Stripe
// (the loopback stand-in) before the rows go, a Checkout left open is expired, a payment that
// lands after the account went is cancelled, and an unreachable Stripe keeps the account.
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { users } from '#server/db/schema/index.ts'
import { createTestApp } from '../../../../tests/helpers/test-app.ts'
import { billingKitForFile, subscribedUser } from '../billing/billing-test-kit.ts'

const kit = billingKitForFile()

describe('deleting a Pro account', () => {
  it('cancels the subscription at Stripe, then deletes the account', async () => {
    const { cookie, userId, subscriptionId } = await subscribedUser(kit)
    expect(kit.standIn.state.subscriptions.get(subscriptionId)?.status).toBe('active')
    const res = await kit.t.request('/api/delete-account', { method: 'POST', cookie, json: {} })
    expect(res.status).toBe(200)
    expect(kit.standIn.state.subscriptions.get(subscriptionId)?.status).toBe('canceled')
    const rows = await kit.t.deps.database.db.select().from(users).where(eq(users.id, userId))
    expect(rows).toEqual([])
    await kit.standIn.waitForDeliveries()
  })

  it('expires a Checkout left open, so it cannot be paid once the account is gone', async () => {
    const { cookie } = await kit.t.signUp()
    const opened = await kit.t.request('/api/subscribe', { method: 'POST', cookie })
    const sessionId = ((await opened.json()) as { url: string }).url.split('/').pop() as string
    expect(kit.standIn.state.checkoutSessions.get(sessionId)?.status).toBe('open')
    const res = await kit.t.request('/api/delete-account', { method: 'POST', cookie, json: {} })
    expect(res.status).toBe(200)
    expect(kit.standIn.state.checkoutSessions.get(sessionId)?.status).toBe('expired')
    await expect(kit.standIn.completeCheckout(sessionId)).rejects.toThrow(/is expired/)
  })

  it('cancels a subscription paid for an account deleted meanwhile', async () => {
    const { cookie, user } = await kit.t.signUp()
    const opened = await kit.t.request('/api/subscribe', { method: 'POST', cookie })
    const sessionId = ((await opened.json()) as { url: string }).url.split('/').pop() as string
    // The payment lands just after the account went (its deletion found nothing to expire yet).
    await kit.t.deps.database.db.delete(users).where(eq(users.id, user.id as string))
    await kit.standIn.completeCheckout(sessionId)
    const subscriptionId = kit.standIn.state.checkoutSessions.get(sessionId)?.subscription as string
    expect(kit.standIn.state.subscriptions.get(subscriptionId)?.status).toBe('canceled')
    await kit.standIn.waitForDeliveries()
  })

  it('keeps the account when Stripe cannot confirm the cancellation', async () => {
    const unreachable = await createTestApp({
      STRIPE_SECRET_KEY: kit.standIn.secretKey,
      STRIPE_PRICE_ID: kit.standIn.priceId,
      STRIPE_API_URL: 'http://127.0.0.1:9',
    })
    try {
      const { cookie, user } = await unreachable.signUp()
      const id = user.id as string
      await unreachable.deps.database.db
        .update(users)
        .set({ stripeCustomerId: 'cus_unreachable', isPremium: true })
        .where(eq(users.id, id))
      const res = await unreachable.request('/api/delete-account', { method: 'POST', cookie, json: {} })
      expect(res.status).toBe(502)
      expect((await res.json()).error).toMatch(/could not be cancelled/)
      expect((await unreachable.request('/api/user', { cookie })).status).toBe(200)
    } finally {
      await unreachable.close()
    }
  })
})
