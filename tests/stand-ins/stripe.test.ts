import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { readBody } from './http-helpers.ts'
import { type StripeStandIn, startStripeStandIn } from './stripe.ts'

// The real SDK against the stand-in, configured the way the app configures it.
let standIn: StripeStandIn
let stripe: Stripe
let receiver: Server
let received: Stripe.Event[] = []

beforeAll(async () => {
  standIn = await startStripeStandIn()
  stripe = new Stripe(standIn.secretKey, { host: standIn.host, port: standIn.port, protocol: 'http' })
  // A webhook endpoint that verifies exactly as the app must: raw body, Stripe-Signature, signing secret.
  receiver = createServer(async (req, res) => {
    const raw = (await readBody(req, 1_000_000)).toString('utf8')
    try {
      const signature = req.headers['stripe-signature'] as string
      received.push(stripe.webhooks.constructEvent(raw, signature, standIn.webhookSecret))
      res.writeHead(200).end('{"received":true}')
    } catch {
      res.writeHead(400).end('bad signature')
    }
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  standIn.setWebhookUrl(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`)
})

afterAll(async () => {
  await standIn?.close()
  await new Promise((resolve) => receiver?.close(resolve))
})

beforeEach(() => {
  received = []
})

async function openCheckout(userId: string, options?: Stripe.RequestOptions) {
  const customer = await stripe.customers.create({ email: `${userId}@example.com`, metadata: { userId } })
  const session = await stripe.checkout.sessions.create(
    {
      mode: 'subscription',
      customer: customer.id,
      client_reference_id: userId,
      line_items: [{ price: standIn.priceId, quantity: 1 }],
      success_url: 'http://127.0.0.1:5173/billing/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://127.0.0.1:5173/billing',
      metadata: { userId },
      subscription_data: { metadata: { userId } },
    },
    options,
  )
  return { customer, session }
}

describe('Stripe stand-in API', () => {
  it('creates and retrieves a customer', async () => {
    const created = await stripe.customers.create({ email: 'ada@example.com', metadata: { userId: 'u1' } })
    expect(created.id).toMatch(/^cus_/)
    const fetched = await stripe.customers.retrieve(created.id)
    expect(fetched).toMatchObject({ id: created.id, email: 'ada@example.com', metadata: { userId: 'u1' } })
  })

  it('creates a checkout session whose URL points at the stand-in, from bracket-encoded params', async () => {
    const { customer, session } = await openCheckout('u2')
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      customer: customer.id,
      client_reference_id: 'u2',
      metadata: { userId: 'u2' },
      subscription: null,
      url: `${standIn.url}/checkout/${session.id}`,
    })
    const request = standIn.requests.findLast((r) => r.path === '/v1/checkout/sessions')
    expect(request?.body).toMatchObject({
      line_items: [{ price: standIn.priceId, quantity: '1' }],
      metadata: { userId: 'u2' },
      subscription_data: { metadata: { userId: 'u2' } },
    })
    expect(request?.idempotencyKey).toMatch(/^stripe-node-retry-/)
    expect((await stripe.checkout.sessions.retrieve(session.id)).id).toBe(session.id)
  })

  it('replays a reused idempotency key instead of creating a second session', async () => {
    const before = standIn.state.checkoutSessions.size
    const first = await openCheckout('u3', { idempotencyKey: 'checkout-u3' })
    const again = await stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        customer: first.customer.id,
        client_reference_id: 'u3',
        line_items: [{ price: standIn.priceId, quantity: 1 }],
        success_url: 'http://127.0.0.1:5173/billing/success?session_id={CHECKOUT_SESSION_ID}',
        cancel_url: 'http://127.0.0.1:5173/billing',
        metadata: { userId: 'u3' },
        subscription_data: { metadata: { userId: 'u3' } },
      },
      { idempotencyKey: 'checkout-u3' },
    )
    expect(again.id).toBe(first.session.id)
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true')
    expect(standIn.state.checkoutSessions.size).toBe(before + 1)
    const misuse = stripe.checkout.sessions.create(
      { mode: 'subscription', line_items: [{ price: standIn.priceId, quantity: 2 }] },
      { idempotencyKey: 'checkout-u3' },
    )
    await expect(misuse).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError)
  })

  it('raises typed errors: wrong key, missing object, unknown parameter', async () => {
    const wrong = new Stripe('sk_test_wrong', { host: standIn.host, port: standIn.port, protocol: 'http' })
    const denied = await wrong.customers.create({ email: 'x@example.com' }).catch((e: unknown) => e)
    expect(denied).toBeInstanceOf(Stripe.errors.StripeAuthenticationError)
    expect(denied).toMatchObject({ statusCode: 401 })
    const lost = await stripe.subscriptions.retrieve('sub_nope').catch((e: unknown) => e)
    expect(lost).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
    expect(lost).toMatchObject({ statusCode: 404, code: 'resource_missing' })
    const unknown = await stripe.checkout.sessions
      .create({
        mode: 'subscription',
        line_items: [{ price: standIn.priceId }],
        discounts: [{ coupon: 'X' }],
      })
      .catch((e: unknown) => e)
    expect(unknown).toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'discounts' })
  })

  it('creates a portal session that keeps return_url', async () => {
    const customer = await stripe.customers.create({ email: 'portal@example.com' })
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'http://127.0.0.1:5173/settings',
    })
    expect(portal).toMatchObject({
      object: 'billing_portal.session',
      customer: customer.id,
      return_url: 'http://127.0.0.1:5173/settings',
      url: `${standIn.url}/portal/${portal.id}`,
    })
  })
})

describe('Stripe stand-in webhooks', () => {
  it('signs payloads the way constructEvent verifies them, and tampering fails', () => {
    const { id, payload } = standIn.makeEvent('invoice.paid', { id: 'in_1', object: 'invoice' })
    const event = stripe.webhooks.constructEvent(payload, standIn.signPayload(payload), standIn.webhookSecret)
    expect(event).toMatchObject({ id, type: 'invoice.paid', api_version: Stripe.API_VERSION })
    const tampered = payload.replace('in_1', 'in_2')
    expect(() =>
      stripe.webhooks.constructEvent(tampered, standIn.signPayload(payload), standIn.webhookSecret),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError)
    const stale = standIn.signPayload(payload, { timestamp: Math.floor(Date.now() / 1000) - 3600 })
    expect(() => stripe.webhooks.constructEvent(payload, stale, standIn.webhookSecret)).toThrow(/tolerance/)
  })

  it('deliver() posts a signed event; a forged signature is refused by the receiver', async () => {
    const event = standIn.makeEvent('customer.updated', { id: 'cus_1', object: 'customer' })
    expect((await standIn.deliver(event)).status).toBe(200)
    expect((await standIn.deliver(event, { secret: 'whsec_other' })).status).toBe(400)
    expect(received.map((e) => e.id)).toEqual([event.id])
  })

  it('completeCheckout creates the subscription and sends three verified events', async () => {
    const { customer, session } = await openCheckout('u4')
    const start = Math.floor(Date.now() / 1000)
    await standIn.completeCheckout(session.id)
    expect(received.map((e) => e.type)).toEqual([
      'checkout.session.completed',
      'customer.subscription.created',
      'invoice.paid',
    ])
    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] })
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid', customer: customer.id })
    const sub = done.subscription as Stripe.Subscription
    expect(sub).toMatchObject({ status: 'active', customer: customer.id, metadata: { userId: 'u4' } })
    const item = sub.items.data[0]!
    expect(item.price.id).toBe(standIn.priceId)
    expect(item.current_period_end - item.current_period_start).toBe(30 * 24 * 60 * 60)
    expect(item.current_period_start).toBeGreaterThanOrEqual(start)
    const invoice = received[2]!.data.object as Stripe.Invoice
    expect(invoice.parent?.subscription_details?.subscription).toBe(sub.id)
    expect(invoice.amount_paid).toBe(2399)
    await expect(standIn.completeCheckout(session.id)).rejects.toThrow(/complete/)
  })

  it('lists, updates and cancels subscriptions, notifying the webhook', async () => {
    const { customer, session } = await openCheckout('u5')
    await standIn.completeCheckout(session.id)
    received = []
    const listed = await stripe.subscriptions.list({ customer: customer.id })
    expect(listed.data).toHaveLength(1)
    const sub = listed.data[0]!

    const updated = await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true })
    expect(updated.cancel_at).toBe(sub.items.data[0]!.current_period_end)
    const canceled = await stripe.subscriptions.cancel(sub.id)
    expect(canceled).toMatchObject({
      status: 'canceled',
      cancellation_details: { reason: 'cancellation_requested' },
    })
    await standIn.waitForDeliveries()
    expect(received.map((e) => e.type)).toEqual([
      'customer.subscription.updated',
      'customer.subscription.deleted',
    ])
    expect(received[0]!.data.previous_attributes).toMatchObject({
      cancel_at_period_end: false,
      cancel_at: null,
    })

    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(0)
    const all = await stripe.subscriptions.list({ customer: customer.id, status: 'all' })
    expect(all.data.map((s) => s.id)).toEqual([sub.id])
  })
})

describe('Stripe stand-in pages', () => {
  it('checkout page pays, delivers events and redirects to success_url with the session id', async () => {
    const { session } = await openCheckout('u6')
    const page = await (await fetch(session.url!)).text()
    expect(page).toContain('$23.99 / month')
    expect(page).toContain('Pay $23.99')
    expect(page).toContain('href="http://127.0.0.1:5173/billing"')
    const paid = await fetch(`${standIn.url}/checkout/${session.id}/pay`, {
      method: 'POST',
      redirect: 'manual',
    })
    expect(paid.status).toBe(303)
    expect(paid.headers.get('location')).toBe(
      `http://127.0.0.1:5173/billing/success?session_id=${session.id}`,
    )
    expect(received).toHaveLength(3)
  })

  it('portal page cancels the subscription and links back to the app', async () => {
    const { customer, session } = await openCheckout('u7')
    await standIn.completeCheckout(session.id)
    received = []
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'http://127.0.0.1:5173/settings',
    })
    const page = await (await fetch(portal.url)).text()
    expect(page).toContain('Cancel subscription')
    expect(page).toContain('<a href="http://127.0.0.1:5173/settings">Return to Loris</a>')
    const subId = standIn.state.checkoutSessions.get(session.id)!.subscription!
    const res = await fetch(`${portal.url}/cancel`, {
      method: 'POST',
      body: new URLSearchParams({ subscription: subId }),
      redirect: 'manual',
    })
    expect(res.status).toBe(303)
    expect(standIn.state.subscriptions.get(subId)?.status).toBe('canceled')
    expect(received.map((e) => e.type)).toEqual(['customer.subscription.deleted'])
    expect(await (await fetch(portal.url)).text()).toContain('Canceled')
  })
})
