import { describe, expect, it } from 'vitest'
import type { WireSubscription } from '../../../../tests/stand-ins/stripe.ts'
import { billingKitForFile, billingState, eventRows, subscribedUser } from './billing-test-kit.ts'

const kit = billingKitForFile()

const snapshot = (id: string) => structuredClone(kit.standIn.state.subscriptions.get(id) as WireSubscription)
const periodEnd = (sub: WireSubscription) => sub.items.data[0]?.current_period_end ?? 0

/** Changes happen at Stripe with the webhooks held back, so the test delivers them itself. */
async function withoutWebhooks<T>(change: () => Promise<T>): Promise<T> {
  kit.standIn.setWebhookUrl('http://127.0.0.1:9/unreachable')
  try {
    const result = await change()
    await kit.standIn.waitForDeliveries()
    return result
  } finally {
    kit.standIn.setWebhookUrl(kit.webhookUrl)
  }
}

describe('POST /api/stripe/webhook: at least once', () => {
  it('processes a replayed event once; three deliveries leave exactly one record', async () => {
    const { userId, subscriptionId } = await subscribedUser(kit)
    const before = await billingState(kit.t, userId)
    const event = kit.standIn.makeEvent('customer.subscription.updated', snapshot(subscriptionId))
    const answers = []
    for (let i = 0; i < 3; i++) {
      const res = await kit.standIn.deliver(event)
      expect(res.status).toBe(200)
      answers.push(await res.json())
    }
    expect(answers).toEqual([
      { received: true },
      { received: true, ignored: 'duplicate' },
      { received: true, ignored: 'duplicate' },
    ])
    expect(await eventRows(kit.t, event.id)).toHaveLength(1)
    expect(await billingState(kit.t, userId)).toEqual(before)
  })

  it('processes concurrent deliveries of one event once', async () => {
    const { subscriptionId } = await subscribedUser(kit)
    const event = kit.standIn.makeEvent('invoice.paid', { ...snapshot(subscriptionId), object: 'invoice' })
    const answers = await Promise.all([1, 2, 3].map(() => kit.standIn.deliver(event).then((r) => r.json())))
    expect(answers.filter((a) => !a.ignored)).toHaveLength(1)
    expect(await eventRows(kit.t, event.id)).toHaveLength(1)
  })

  it('a replay of the old checkout.session.completed does not bring a canceled subscription back', async () => {
    const { userId, sessionId, subscriptionId } = await subscribedUser(kit)
    const completed = kit.standIn.makeEvent(
      'checkout.session.completed',
      structuredClone(kit.standIn.state.checkoutSessions.get(sessionId) as object),
    )
    await kit.stripe.subscriptions.cancel(subscriptionId)
    await kit.standIn.waitForDeliveries()
    expect((await kit.standIn.deliver(completed)).status).toBe(200)
    const canceled = kit.standIn.state.subscriptions.get(subscriptionId)
    expect(await billingState(kit.t, userId)).toMatchObject({
      isPremium: false,
      status: 'canceled',
      end: canceled?.ended_at,
    })
  })
})

describe('POST /api/stripe/webhook: any order', () => {
  it('subscription.deleted delivered before the older subscription.updated leaves the user canceled', async () => {
    const { userId, subscriptionId } = await subscribedUser(kit)
    // At Stripe: first the user schedules cancellation (updated), then it is canceled (deleted).
    await withoutWebhooks(() =>
      kit.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true }),
    )
    const updated = kit.standIn.makeEvent('customer.subscription.updated', snapshot(subscriptionId), {
      created: Math.floor(Date.now() / 1000) - 60,
      previousAttributes: { cancel_at_period_end: false },
    })
    await withoutWebhooks(() => kit.stripe.subscriptions.cancel(subscriptionId))
    const deleted = kit.standIn.makeEvent('customer.subscription.deleted', snapshot(subscriptionId))

    expect((await kit.standIn.deliver(deleted)).status).toBe(200)
    const ended = kit.standIn.state.subscriptions.get(subscriptionId)
    const expected = { isPremium: false, status: 'canceled', subscriptionId, end: ended?.ended_at }
    expect(await billingState(kit.t, userId)).toMatchObject(expected)
    expect((await kit.standIn.deliver(updated)).status).toBe(200)
    expect(await billingState(kit.t, userId)).toMatchObject(expected)
    expect(await eventRows(kit.t, updated.id)).toHaveLength(1)
  })

  it('invoice.paid before customer.subscription.created still makes the user Pro with the right dates', async () => {
    const { cookie, user } = await kit.t.signUp()
    const { url } = await (await kit.t.request('/api/subscribe', { method: 'POST', cookie })).json()
    const sessionId = url.split('/').pop()
    await withoutWebhooks(() => kit.standIn.completeCheckout(sessionId).catch(() => {}))
    const subId = kit.standIn.state.checkoutSessions.get(sessionId)?.subscription as string
    const sub = snapshot(subId)
    const invoice = kit.standIn.state.invoices.get(sub.latest_invoice ?? '') as object
    await kit.standIn.deliver(kit.standIn.makeEvent('invoice.paid', invoice))
    const pro = {
      isPremium: true,
      status: 'active',
      subscriptionId: subId,
      start: sub.start_date,
      end: periodEnd(sub),
    }
    expect(await billingState(kit.t, user.id as string)).toEqual(pro)
    await kit.standIn.deliver(kit.standIn.makeEvent('customer.subscription.created', sub))
    await kit.standIn.deliver(
      kit.standIn.makeEvent(
        'checkout.session.completed',
        kit.standIn.state.checkoutSessions.get(sessionId) as object,
      ),
    )
    expect(await billingState(kit.t, user.id as string)).toEqual(pro)
  })

  it('a renewal (invoice.paid) moves the end date to the new period end', async () => {
    const { userId, subscriptionId } = await subscribedUser(kit)
    // Stripe renews: the item's period moves on a month (the stand-in has no clock to advance).
    const item = kit.standIn.state.subscriptions.get(subscriptionId)?.items.data[0]
    if (!item) throw new Error('no item')
    item.current_period_start = item.current_period_end
    item.current_period_end += 30 * 86_400
    const invoice = { id: 'in_renewal', object: 'invoice', customer: snapshot(subscriptionId).customer }
    expect((await kit.standIn.deliver(kit.standIn.makeEvent('invoice.paid', invoice))).status).toBe(200)
    expect(await billingState(kit.t, userId)).toMatchObject({ isPremium: true, end: item.current_period_end })
  })

  it('a scheduled cancellation keeps Pro until the period end, which becomes the end date', async () => {
    const { userId, subscriptionId } = await subscribedUser(kit)
    await kit.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true })
    await kit.standIn.waitForDeliveries()
    expect(await billingState(kit.t, userId)).toMatchObject({
      isPremium: true,
      status: 'active',
      end: periodEnd(snapshot(subscriptionId)),
    })
  })
})

describe('POST /api/stripe/webhook: signatures', () => {
  async function expectRejected(res: Response, userId: string, before: object, eventId: string) {
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: expect.stringMatching(/signature/i) })
    expect(await billingState(kit.t, userId)).toEqual(before)
    expect(await eventRows(kit.t, eventId)).toHaveLength(0)
  }

  // Each forged event describes the subscription as canceled at Stripe, so acting on it would show.
  async function forged() {
    const { userId, subscriptionId } = await subscribedUser(kit)
    await withoutWebhooks(() => kit.stripe.subscriptions.cancel(subscriptionId))
    const before = await billingState(kit.t, userId)
    expect(before.isPremium).toBe(true)
    return {
      userId,
      before,
      event: kit.standIn.makeEvent('customer.subscription.deleted', snapshot(subscriptionId)),
    }
  }

  it('rejects a payload with one byte changed', async () => {
    const { userId, before, event } = await forged()
    const signature = kit.standIn.signPayload(event.payload)
    const tampered = event.payload.replace('"canceled"', '"canceleD"')
    expect(tampered).not.toBe(event.payload)
    const res = await kit.standIn.deliver({ payload: tampered }, { signature })
    await expectRejected(res, userId, before, event.id)
  })

  it('rejects a signature made with another secret', async () => {
    const { userId, before, event } = await forged()
    const res = await kit.standIn.deliver(event, { secret: 'whsec_somebody_else_0123456789' })
    await expectRejected(res, userId, before, event.id)
  })

  it('rejects an expired timestamp (replay after the 5-minute tolerance)', async () => {
    const { userId, before, event } = await forged()
    const res = await kit.standIn.deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 3600 })
    await expectRejected(res, userId, before, event.id)
  })

  it('rejects a request without a Stripe-Signature header', async () => {
    const { userId, before, event } = await forged()
    const res = await fetch(kit.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: event.payload,
    })
    await expectRejected(res, userId, before, event.id)
  })

  it('accepts the same event correctly signed, and then the user is exactly canceled', async () => {
    const { userId, event } = await forged()
    expect((await kit.standIn.deliver(event)).status).toBe(200)
    expect(await billingState(kit.t, userId)).toMatchObject({ isPremium: false, status: 'canceled' })
  })
})

describe('POST /api/stripe/webhook: other events', () => {
  it('answers 200 to an unknown event type and records nothing', async () => {
    const event = kit.standIn.makeEvent('customer.tax_id.created', { id: 'txi_1', object: 'tax_id' })
    const res = await kit.standIn.deliver(event)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ received: true, ignored: 'unhandled_type' })
    expect(await eventRows(kit.t, event.id)).toHaveLength(0)
  })

  it('records an event for a customer that is no Loris user, and changes nobody', async () => {
    const customer = await kit.stripe.customers.create({ email: 'elsewhere@example.com' })
    const event = kit.standIn.makeEvent('customer.subscription.updated', {
      id: 'sub_elsewhere',
      object: 'subscription',
      customer: customer.id,
      status: 'active',
      metadata: {},
    })
    const res = await kit.standIn.deliver(event)
    expect(await res.json()).toEqual({ received: true, ignored: 'unknown_customer' })
    expect(await eventRows(kit.t, event.id)).toHaveLength(1)
  })
})

describe('POST /api/stripe/webhook: validly signed but malformed events', () => {
  // Signed with the real secret, so only their shape is wrong: 400 or 200-ignored, never 500.
  it.each([
    ['null', 'null'],
    ['a handled type without data', '{"id":"evt_nodata","type":"invoice.paid","created":1700000000}'],
    ['data without object', '{"id":"evt_noobj","type":"invoice.paid","created":1700000000,"data":{}}'],
    [
      'no created time',
      '{"id":"evt_nocreated","type":"checkout.session.completed","data":{"object":{"customer":"cus_q"}}}',
    ],
    [
      'a numeric id',
      '{"id":123,"type":"customer.subscription.updated","created":1700000000,"data":{"object":{"customer":"cus_x"}}}',
    ],
    [
      'a NUL in the id',
      '{"id":"evt\\u0000","type":"customer.subscription.updated","created":1700000000,"data":{"object":{"customer":"cus_1"}}}',
    ],
    [
      'an out-of-range created',
      '{"id":"evt_far","type":"invoice.paid","created":1e300,"data":{"object":{"customer":"cus_1"}}}',
    ],
  ])('refuses %s with 400', async (_name, payload) => {
    const res = await kit.standIn.deliver({ payload })
    if (payload === 'null') {
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ received: true, ignored: 'unhandled_type' })
      return
    }
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ code: 'bad_request:event' })
  })

  it.each([
    ['a customer object with a numeric id', { customer: { id: 5 } }],
    ['a NUL in the customer id', { customer: 'cus\u0000' }],
    ['a NUL in the metadata user id', { customer: 'cus_z', metadata: { userId: `${'0'.repeat(8)}\u0000` } }],
    ['a numeric client_reference_id', { customer: 'cus_r', client_reference_id: 7 }],
    ['a non-object invoice parent', { customer: 'cus_p', parent: 5 }],
  ])('ignores an event with %s (no Loris customer), recording it', async (_name, object) => {
    const event = kit.standIn.makeEvent('invoice.paid', object)
    const res = await kit.standIn.deliver(event)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ received: true, ignored: 'unknown_customer' })
    expect(await eventRows(kit.t, event.id)).toHaveLength(1)
  })
})
