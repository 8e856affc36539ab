import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { subscriptionStatusSchema } from '#contract/billing.ts'
import { users } from '#server/db/schema/index.ts'
import { createTestApp, TEST_ORIGIN } from '../../../../tests/helpers/test-app.ts'
import { billingKitForFile, billingState, subscribedUser, userRow } from './billing-test-kit.ts'
import { cancelSubscriptionForUser } from './cancel-subscription.ts'

const kit = billingKitForFile()

const post = (path: string, cookie?: string) => kit.t.request(path, { method: 'POST', cookie })
const customerCreations = () =>
  kit.standIn.requests.filter((r) => r.method === 'POST' && r.path === '/v1/customers')

describe('POST /api/subscribe', () => {
  it('needs a signed-in user', async () => {
    expect((await post('/api/subscribe')).status).toBe(401)
  })

  it('creates the customer once (idempotency key per user) and a subscription Checkout', async () => {
    const { cookie, user } = await kit.t.signUp()
    const before = customerCreations().length
    const res = await post('/api/subscribe', cookie)
    expect(res.status).toBe(200)
    const { url } = (await res.json()) as { url: string }
    expect(url.startsWith(`${kit.standIn.url}/checkout/cs_test_`)).toBe(true)

    const created = customerCreations().slice(before)
    expect(created).toHaveLength(1)
    expect(created[0]?.idempotencyKey).toBe(`loris-customer-${user.id}`)
    const row = await userRow(kit.t, user.id as string)
    const customer = kit.standIn.state.customers.get(row.stripeCustomerId ?? '')
    expect(customer).toMatchObject({ email: user.email, metadata: { userId: user.id } })

    const session = kit.standIn.state.checkoutSessions.get(url.split('/').pop() as string)
    expect(session).toMatchObject({
      mode: 'subscription',
      customer: row.stripeCustomerId,
      client_reference_id: user.id,
      success_url: `${TEST_ORIGIN}/chat?subscription=success`,
      cancel_url: `${TEST_ORIGIN}/chat`,
    })
    const checkoutCall = kit.standIn.requests.findLast((r) => r.path === '/v1/checkout/sessions')
    expect(checkoutCall?.body.line_items).toEqual([{ price: kit.standIn.priceId, quantity: '1' }])
    expect(checkoutCall?.idempotencyKey).toBeTruthy()
  })

  it('reuses the customer and the open Checkout when asked again', async () => {
    const { cookie, user } = await kit.t.signUp()
    const first = (await (await post('/api/subscribe', cookie)).json()) as { url: string }
    const customerId = (await userRow(kit.t, user.id as string)).stripeCustomerId
    const before = customerCreations().length
    const again = await post('/api/subscribe', cookie)
    expect(again.status).toBe(200)
    expect(((await again.json()) as { url: string }).url).toBe(first.url)
    expect(customerCreations().length).toBe(before)
    expect((await userRow(kit.t, user.id as string)).stripeCustomerId).toBe(customerId)
  })

  it('answers 409 to a subscribed user instead of selling a second subscription', async () => {
    const { cookie, userId } = await subscribedUser(kit)
    expect((await billingState(kit.t, userId)).isPremium).toBe(true)
    const checkouts = kit.standIn.state.checkoutSessions.size
    const res = await post('/api/subscribe', cookie)
    expect(res.status).toBe(409)
    expect(await res.json()).toMatchObject({
      error: expect.stringMatching(/already have an active Loris Pro/),
    })
    expect(kit.standIn.state.checkoutSessions.size).toBe(checkouts)
  })

  it('asks Stripe before selling: a payment whose webhook has not arrived still gets 409', async () => {
    const { cookie, user } = await kit.t.signUp()
    const { url } = (await (await post('/api/subscribe', cookie)).json()) as { url: string }
    // The payment goes through at Stripe but its webhooks cannot reach the app.
    kit.standIn.setWebhookUrl('http://127.0.0.1:9/unreachable')
    try {
      await expect(kit.standIn.completeCheckout(url.split('/').pop() as string)).rejects.toThrow()
    } finally {
      kit.standIn.setWebhookUrl(kit.webhookUrl)
    }
    expect((await billingState(kit.t, user.id as string)).isPremium).toBe(false)
    const res = await post('/api/subscribe', cookie)
    expect(res.status).toBe(409)
    // ...and the check stored what Stripe said.
    expect(await billingState(kit.t, user.id as string)).toMatchObject({ isPremium: true, status: 'active' })
  })

  it('trusts Stripe over a stored Pro flag whose cancellation webhook was lost', async () => {
    const { cookie, userId, subscriptionId } = await subscribedUser(kit)
    kit.standIn.setWebhookUrl('http://127.0.0.1:9/unreachable')
    try {
      await kit.stripe.subscriptions.cancel(subscriptionId)
      await kit.standIn.waitForDeliveries()
    } finally {
      kit.standIn.setWebhookUrl(kit.webhookUrl)
    }
    expect((await billingState(kit.t, userId)).isPremium).toBe(true)
    const res = await post('/api/subscribe', cookie)
    expect(res.status).toBe(200)
    expect(await billingState(kit.t, userId)).toMatchObject({ isPremium: false, status: 'canceled' })
  })

  it('offers a new Checkout after the subscription ended', async () => {
    const { cookie, userId, subscriptionId } = await subscribedUser(kit)
    await kit.stripe.subscriptions.cancel(subscriptionId)
    await kit.standIn.waitForDeliveries()
    expect((await billingState(kit.t, userId)).isPremium).toBe(false)
    const res = await post('/api/subscribe', cookie)
    expect(res.status).toBe(200)
    const { url } = (await res.json()) as { url: string }
    expect(kit.standIn.state.checkoutSessions.get(url.split('/').pop() as string)?.status).toBe('open')
  })
})

describe('POST /api/create-portal-session', () => {
  it('answers 400 with error to a user who has no customer', async () => {
    const { cookie } = await kit.t.signUp()
    const res = await post('/api/create-portal-session', cookie)
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: expect.stringMatching(/no billing account/i) })
  })

  it('opens the portal for the user’s customer, returning to /account', async () => {
    const { cookie, userId } = await subscribedUser(kit)
    const res = await post('/api/create-portal-session', cookie)
    expect(res.status).toBe(200)
    const { url } = (await res.json()) as { url: string }
    expect(url.startsWith(`${kit.standIn.url}/portal/bps_`)).toBe(true)
    const portal = kit.standIn.state.portalSessions.get(url.split('/').pop() as string)
    expect(portal).toMatchObject({
      customer: (await userRow(kit.t, userId)).stripeCustomerId,
      return_url: `${TEST_ORIGIN}/account`,
    })
  })
})

describe('GET /api/subscription/status', () => {
  it('reports a never-subscribed user', async () => {
    const { cookie } = await kit.t.signUp()
    const res = await kit.t.request('/api/subscription/status', { cookie })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      isSubscribed: false,
      subscription: { current_period_end: null, status: null },
    })
  })

  it('reports the paid period end in seconds, and the user record agrees', async () => {
    const { cookie, userId, subscriptionId } = await subscribedUser(kit)
    const sub = kit.standIn.state.subscriptions.get(subscriptionId)
    const periodEnd = sub?.items.data[0]?.current_period_end
    const status = subscriptionStatusSchema.parse(
      await (await kit.t.request('/api/subscription/status', { cookie })).json(),
    )
    expect(status).toEqual({
      isSubscribed: true,
      subscription: { current_period_end: periodEnd, status: 'active' },
    })
    const me = await (await kit.t.request('/api/user', { cookie })).json()
    expect(me).toMatchObject({
      isPremium: true,
      subscription_start_date: new Date((sub?.start_date ?? 0) * 1000).toISOString(),
      subscription_end_date: new Date((periodEnd ?? 0) * 1000).toISOString(),
    })
    expect(userId).toBe(me.id)
  })

  it('reports Pro granted outside Stripe while it lasts, and not after its end date', async () => {
    const { cookie, user } = await kit.t.signUp()
    const grant = (subscriptionEndDate: Date) =>
      kit.t.deps.database.db
        .update(users)
        .set({ isPremium: true, subscriptionEndDate })
        .where(eq(users.id, user.id as string))
    const status = async () =>
      subscriptionStatusSchema.parse(
        await (await kit.t.request('/api/subscription/status', { cookie })).json(),
      )

    await grant(new Date(Date.now() + 86_400_000))
    expect((await status()).isSubscribed).toBe(true)
    expect((await post('/api/subscribe', cookie)).status).toBe(409)

    // Ended: no longer Pro, and free to subscribe, though the stored flag was never cleared.
    await grant(new Date(Date.now() - 1000))
    expect((await status()).isSubscribed).toBe(false)
    expect((await post('/api/subscribe', cookie)).status).toBe(200)
  })
})

describe('cancelSubscriptionForUser (account deletion)', () => {
  it('cancels the subscription at Stripe and ends Pro', async () => {
    const { userId, subscriptionId } = await subscribedUser(kit)
    const result = await cancelSubscriptionForUser(kit.t.deps, await userRow(kit.t, userId))
    expect(result.canceled).toEqual([subscriptionId])
    expect(kit.standIn.state.subscriptions.get(subscriptionId)?.status).toBe('canceled')
    expect(await billingState(kit.t, userId)).toMatchObject({ isPremium: false, status: 'canceled' })
    await kit.standIn.waitForDeliveries()
    expect((await billingState(kit.t, userId)).isPremium).toBe(false)
  })

  it('does nothing for a user who never had a customer', async () => {
    const { user } = await kit.t.signUp()
    const calls = kit.standIn.requests.length
    expect(await cancelSubscriptionForUser(kit.t.deps, await userRow(kit.t, user.id as string))).toEqual({
      canceled: [],
    })
    expect(kit.standIn.requests.length).toBe(calls)
  })
})

describe('without Stripe configuration', () => {
  it('answers 503 on every billing action and the rest of the app works', async () => {
    const bare = await createTestApp()
    try {
      const { cookie } = await bare.signUp()
      // The status needs no Stripe: 401 without a session, the stored state (never subscribed) with one.
      const anonymous = await bare.request('/api/subscription/status')
      expect(anonymous.status).toBe(401)
      expect(await anonymous.json()).toMatchObject({ code: 'unauthorized:session' })
      const status = await bare.request('/api/subscription/status', { cookie })
      expect(status.status).toBe(200)
      expect(await status.json()).toEqual({
        isSubscribed: false,
        subscription: { current_period_end: null, status: null },
      })
      const calls: [string, string][] = [
        ['POST', '/api/subscribe'],
        ['POST', '/api/create-portal-session'],
        ['POST', '/api/stripe/webhook'],
      ]
      for (const [method, path] of calls) {
        const res = await bare.request(path, { method, cookie })
        expect(res.status, path).toBe(503)
        expect(await res.json()).toMatchObject({ error: 'Payments are not configured on this server' })
      }
      const config = await (await bare.request('/api/config')).json()
      expect(config.payments).toEqual({
        available: false,
        reason: 'Payments are not configured on this server',
      })
      expect((await bare.request('/api/user', { cookie })).status).toBe(200)
      const user = await userRow(bare, (await (await bare.request('/api/user', { cookie })).json()).id)
      expect(await cancelSubscriptionForUser(bare.deps, user)).toEqual({ canceled: [] })
    } finally {
      await bare.close()
    }
  }, 120_000)
})
