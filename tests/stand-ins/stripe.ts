// Loopback Stripe that the real `stripe` SDK talks to in tests: edit when the app starts using another
// endpoint or field. Object shapes follow the installed SDK's pinned API version (Stripe.API_VERSION).
import { createHmac, randomInt } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import Stripe from 'stripe'
import { type FormObject, type FormValue, parseStripeForm } from './form-body.ts'
import { closeServer, listen, readBody } from './http-helpers.ts'

// Decimal fields travel as strings; the SDK makes Decimals of them in API responses, never in webhooks.
type Wire<T> = T extends Stripe.Decimal
  ? string
  : T extends (infer U)[]
    ? Wire<U>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T
// Any field we send must be typed as the SDK says; K lists the fields this file relies on being present,
// and Nested replaces fields whose objects are themselves shaped here.
type Shape<T, K extends keyof Wire<T>, Nested = unknown> = Omit<Partial<Wire<T>>, keyof Nested> &
  Pick<Wire<T>, K> &
  Nested
type List<T> = { object: 'list'; data: T[]; has_more: boolean; url: string }

export type WireCustomer = Shape<Stripe.Customer, 'id' | 'email' | 'name' | 'metadata'>
export type WirePrice = Shape<Stripe.Price, 'id' | 'currency' | 'nickname' | 'product' | 'unit_amount'>
// Since API version 2025-03-31 the billing period lives on each item, not on the subscription.
type WireItem = Shape<
  Stripe.SubscriptionItem,
  'id' | 'current_period_start' | 'current_period_end',
  { price: WirePrice; plan: Shape<Stripe.Plan, 'interval'> }
>
export type WireSubscription = Shape<
  Stripe.Subscription,
  | 'id'
  | 'status'
  | 'currency'
  | 'metadata'
  | 'cancel_at'
  | 'cancel_at_period_end'
  | 'canceled_at'
  | 'description',
  { customer: string; latest_invoice: string | null; items: List<WireItem> }
>
export type WireCheckoutSession = Shape<
  Stripe.Checkout.Session,
  'id' | 'status' | 'customer_email' | 'success_url' | 'cancel_url',
  { customer: string | null; subscription: string | null; invoice: string | null }
>
export type WirePortalSession = Shape<Stripe.BillingPortal.Session, 'id' | 'customer' | 'return_url' | 'url'>
export type WireInvoice = Shape<
  Stripe.Invoice,
  'id',
  { customer: string; lines: List<Shape<Stripe.InvoiceLineItem, 'id'>> }
>

export interface EventOptions {
  id?: string
  created?: number
  /** For `*.updated` events: the changed fields' earlier values. */
  previousAttributes?: Record<string, unknown>
}

export interface DeliverOptions {
  url?: string
  timestamp?: number
  secret?: string
  /** Replaces the Stripe-Signature header, e.g. to test rejection. */
  signature?: string
}

export interface StripeStandIn {
  url: string
  host: string
  port: number
  /** Requests without `Authorization: Bearer <secretKey>` get Stripe's 401. */
  secretKey: string
  webhookSecret: string
  priceId: string
  state: {
    customers: Map<string, WireCustomer>
    checkoutSessions: Map<string, WireCheckoutSession>
    subscriptions: Map<string, WireSubscription>
    portalSessions: Map<string, WirePortalSession>
    invoices: Map<string, WireInvoice>
    prices: Map<string, WirePrice>
  }
  /** API calls in arrival order; `body` is the decoded form body, or the query for GET and DELETE. */
  requests: { method: string; path: string; body: Record<string, unknown>; idempotencyKey?: string }[]
  /** Webhook deliveries in order; `status` 0 means the receiver could not be reached. */
  deliveries: { eventId: string; type: string; status: number }[]
  setWebhookUrl(url: string): void
  signPayload(payload: string, opts?: { timestamp?: number; secret?: string }): string
  makeEvent(type: string, object: object, opts?: EventOptions): { id: string; payload: string }
  deliver(event: { payload: string }, opts?: DeliverOptions): Promise<Response>
  /** What paying on the checkout page does; rejects unless every webhook is answered with 2xx. */
  completeCheckout(sessionId: string): Promise<void>
  /** Settles the webhooks that API calls (cancel, update) send after answering. */
  waitForDeliveries(): Promise<void>
  close(): Promise<void>
}

const dayS = 24 * 60 * 60
const bodyLimit = 1_000_000
const pro = { unitAmount: 2399, currency: 'usd', interval: 'month' as const, product: 'prod_LorisPro' }
const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const now = () => Math.floor(Date.now() / 1000)
const newId = (prefix: string, length = 24) =>
  prefix + Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('')
const money = (cents: number) => `$${(cents / 100).toFixed(2)}`
const list = <T>(data: T[], url: string): List<T> => ({ object: 'list', data, has_more: false, url })
const clone = <T>(value: T): T => structuredClone(value)
const esc = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

// An event waiting to be sent, holding a snapshot so later state changes do not leak into it.
type Notice = { type: string; object: object; previousAttributes?: Record<string, unknown> }
const notice = (type: string, object: object, previousAttributes?: Record<string, unknown>): Notice => ({
  type,
  object: clone(object),
  previousAttributes,
})

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; message: string; code?: string; param?: string },
  ) {
    super(body.message)
  }
}
const missing = (kind: string, id: string, param = 'id'): never => {
  throw new ApiError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${id}'`,
    param,
  })
}
const invalid = (message: string, param?: string, code?: string) =>
  new ApiError(400, { type: 'invalid_request_error', message, param, code })

// The wire objects below keep a few fields per line: one per line would bury the ones that matter.
function makePrice(id: string): WirePrice {
  // biome-ignore format: see above
  return {
    id, object: 'price', active: true, billing_scheme: 'per_unit', created: now(), currency: pro.currency,
    livemode: false, lookup_key: 'loris_pro_monthly', metadata: {}, nickname: 'Loris Pro',
    product: pro.product, tax_behavior: 'unspecified', type: 'recurring', unit_amount: pro.unitAmount,
    unit_amount_decimal: String(pro.unitAmount), custom_unit_amount: null, tiers_mode: null,
    transform_quantity: null,
    recurring: {
      interval: pro.interval, interval_count: 1, meter: null, trial_period_days: null, usage_type: 'licensed',
    },
  }
}

function makeSubscription(
  customer: string,
  price: WirePrice,
  meta: Record<string, string>,
): WireSubscription {
  const id = newId('sub_')
  const start = now()
  // Plans are the legacy view of the price, still embedded in every item.
  // biome-ignore format: see above
  const plan = {
    id: price.id, object: 'plan', active: true, amount: price.unit_amount, currency: price.currency,
    interval: pro.interval, interval_count: 1, product: price.product, usage_type: 'licensed',
  } as const
  // biome-ignore format: see above
  const item: WireItem = {
    id: newId('si_', 14), object: 'subscription_item', created: start, metadata: {}, quantity: 1,
    current_period_start: start, current_period_end: start + 30 * dayS, discounts: [], tax_rates: [],
    subscription: id, price, plan,
  }
  // biome-ignore format: see above
  return {
    id, object: 'subscription', customer, status: 'active', currency: price.currency, metadata: meta,
    items: list([item], `/v1/subscription_items?subscription=${id}`), latest_invoice: null, description: null,
    created: start, start_date: start, billing_cycle_anchor: start, collection_method: 'charge_automatically',
    cancel_at: null, cancel_at_period_end: false, canceled_at: null, ended_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    default_payment_method: newId('pm_'), discounts: [], pause_collection: null, schedule: null,
    trial_start: null, trial_end: null, test_clock: null, livemode: false,
  }
}

function makeInvoice(sub: WireSubscription, customer: WireCustomer, url: string): WireInvoice {
  const id = newId('in_')
  const item = sub.items.data[0]!
  const amount = item.price.unit_amount ?? 0
  const t = now()
  // biome-ignore format: see above
  const line = {
    id: newId('il_'), object: 'line_item', amount, subtotal: amount, currency: sub.currency, invoice: id,
    description: `1 × ${item.price.nickname} (at ${money(amount)} / ${item.plan.interval})`,
    quantity: 1, discountable: true, discounts: [], livemode: false, metadata: {}, subscription: sub.id,
    period: { start: item.current_period_start, end: item.current_period_end },
    parent: {
      type: 'subscription_item_details', invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null, proration: false, proration_details: { credited_items: null },
        subscription: sub.id, subscription_item: item.id,
      },
    },
    pricing: {
      type: 'price_details', price_details: { price: item.price.id, product: pro.product },
      unit_amount_decimal: String(amount),
    },
  } satisfies Partial<Wire<Stripe.InvoiceLineItem>>
  // biome-ignore format: see above
  return {
    id, object: 'invoice', customer: sub.customer, status: 'paid', billing_reason: 'subscription_create',
    amount_due: amount, amount_paid: amount, amount_remaining: 0, subtotal: amount, total: amount,
    currency: sub.currency, created: t, effective_at: t, period_start: t, period_end: t, livemode: false,
    customer_email: customer.email, customer_name: customer.name ?? null, metadata: {}, attempted: true,
    collection_method: 'charge_automatically', attempt_count: 1, number: `LORIS-${randomInt(10_000)}`,
    hosted_invoice_url: `${url}/invoice/${id}`, invoice_pdf: `${url}/invoice/${id}/pdf`,
    status_transitions: { finalized_at: t, marked_uncollectible_at: null, paid_at: t, voided_at: null },
    lines: list([line], `/v1/invoices/${id}/lines`),
    // Since API version 2025-03-31 an invoice's subscription is found here, not at `invoice.subscription`.
    parent: {
      type: 'subscription_details', quote_details: null,
      subscription_details: { metadata: sub.metadata, subscription: sub.id },
    },
  }
}

type CustomerFields = { email?: string; name?: string; description?: string; phone?: string }
function makeCustomer(p: CustomerFields): WireCustomer {
  const invoice_settings = {
    custom_fields: null,
    default_payment_method: null,
    footer: null,
    rendering_options: null,
  }
  // biome-ignore format: see above
  return {
    id: newId('cus_', 14), object: 'customer', created: now(), email: p.email ?? null, name: p.name ?? null,
    description: p.description ?? null, phone: p.phone ?? null, metadata: {}, livemode: false, balance: 0,
    address: null, currency: null, default_source: null, delinquent: false, shipping: null,
    tax_exempt: 'none',
    invoice_prefix: newId('', 8).toUpperCase(), preferred_locales: [], test_clock: null, invoice_settings,
  }
}

// --- parameter checks that answer with Stripe's own messages ---

function allowOnly(params: FormObject, allowed: string[]): void {
  for (const key of Object.keys(params)) {
    if (!allowed.includes(key)) throw invalid(`Received unknown parameter: ${key}`, key, 'parameter_unknown')
  }
}
function optString(params: FormObject, key: string): string | undefined {
  const value = params[key]
  if (value === undefined || typeof value === 'string') return value
  throw invalid(`Invalid string: ${JSON.stringify(value)}`, key)
}
function required(params: FormObject, key: string): string {
  const value = optString(params, key)
  if (!value) throw invalid(`Missing required param: ${key}.`, key, 'parameter_missing')
  return value
}
function optBoolean(params: FormObject, key: string): boolean | undefined {
  const value = optString(params, key)
  if (value === undefined) return undefined
  if (value !== 'true' && value !== 'false') throw invalid(`Invalid boolean: ${value}`, key)
  return value === 'true'
}
function optHash(params: FormObject, key: string): FormObject | undefined {
  const value = params[key]
  if (value === undefined || (typeof value === 'object' && !Array.isArray(value))) return value
  throw invalid('Invalid hash', key)
}
// Metadata updates merge; an empty value removes its key and `metadata=` clears them all.
function mergeMetadata(current: Record<string, string>, value: FormValue | undefined, param = 'metadata') {
  if (value === undefined) return current
  if (value === '') return {}
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid('Invalid hash', param)
  const next = { ...current }
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw invalid('Metadata values must be strings.', `${param}[${key}]`)
    if (v === '') delete next[key]
    else next[key] = v
  }
  return next
}

export async function startStripeStandIn(
  opts: { port?: number; webhookUrl?: string; priceId?: string } = {},
): Promise<StripeStandIn> {
  const secretKey = 'sk_test_standin'
  const webhookSecret = 'whsec_standin_0123456789abcdef'
  const priceId = opts.priceId ?? 'price_loris_pro_monthly'
  let webhookUrl = opts.webhookUrl
  let url = ''
  const state: StripeStandIn['state'] = {
    customers: new Map(),
    checkoutSessions: new Map(),
    subscriptions: new Map(),
    portalSessions: new Map(),
    invoices: new Map(),
    prices: new Map([[priceId, makePrice(priceId)]]),
  }
  const requests: StripeStandIn['requests'] = []
  const deliveries: StripeStandIn['deliveries'] = []
  const pending = new Set<Promise<unknown>>()
  // subscription_data.metadata waits here until the session's subscription exists.
  const subscriptionMetadata = new Map<string, Record<string, string>>()
  // Stripe keeps each idempotency key's first answer and replays it; the fingerprint spots reuse elsewhere.
  const idempotent = new Map<string, { fingerprint: string; status: number; json: string }>()

  const signPayload: StripeStandIn['signPayload'] = (payload, o = {}) => {
    const t = o.timestamp ?? now()
    const v1 = createHmac('sha256', o.secret ?? webhookSecret)
      .update(`${t}.${payload}`)
      .digest('hex')
    return `t=${t},v1=${v1}`
  }

  const makeEvent: StripeStandIn['makeEvent'] = (type, object, o = {}) => {
    const id = o.id ?? newId('evt_')
    const data = o.previousAttributes ? { object, previous_attributes: o.previousAttributes } : { object }
    // biome-ignore format: see the wire objects above
    const event = {
      id, object: 'event', api_version: Stripe.API_VERSION, created: o.created ?? now(), data,
      livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type,
    }
    // Stripe pretty-prints webhook bodies; receivers must verify the raw bytes, not re-serialised JSON.
    return { id, payload: JSON.stringify(event, null, 2) }
  }

  const deliver: StripeStandIn['deliver'] = async (event, o = {}) => {
    const target = o.url ?? webhookUrl
    if (!target) throw new Error('Stripe stand-in: no webhook URL; call setWebhookUrl() first')
    return fetch(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        'stripe-signature': o.signature ?? signPayload(event.payload, o),
      },
      body: event.payload,
    })
  }

  // Delivers one at a time, in order, recording each answer; returns the ones not answered with 2xx.
  async function send(notices: Notice[]): Promise<string[]> {
    const failures: string[] = []
    for (const { type, object, previousAttributes } of notices) {
      const event = makeEvent(type, object, { previousAttributes })
      const status = await deliver(event).then(
        async (res) => {
          await res.body?.cancel()
          return res.status
        },
        () => 0,
      )
      deliveries.push({ eventId: event.id, type, status })
      if (status < 200 || status > 299) failures.push(`${type} → ${status || 'unreachable'}`)
    }
    return failures
  }

  // API calls answer first and notify afterwards, as Stripe does: the receiver may be the caller.
  function sendLater(notices: Notice[]): void {
    if (!webhookUrl) return
    const p: Promise<unknown> = send(notices).finally(() => pending.delete(p))
    pending.add(p)
  }

  // Replaces ids with their objects along a dotted path such as `subscription` or `data.customer`.
  function expand(node: Record<string, unknown>, path: string[], full: string): void {
    const [head, ...rest] = path
    if (!head) return
    if (head === 'data' && Array.isArray(node.data)) {
      for (const item of node.data) expand(item, rest, full)
      return
    }
    let value = node[head]
    if (typeof value === 'string') {
      const maps = Object.values(state) as Map<string, object>[]
      const found = maps.find((m) => m.has(value as string))?.get(value)
      if (!found) throw invalid(`This property cannot be expanded (${full}).`, 'expand')
      value = node[head] = clone(found)
    } else if (value === undefined) {
      throw invalid(`This property cannot be expanded (${full}).`, 'expand')
    }
    if (rest.length > 0 && value && typeof value === 'object') {
      expand(value as Record<string, unknown>, rest, full)
    }
  }

  const completeCheckout: StripeStandIn['completeCheckout'] = async (sessionId) => {
    const session = state.checkoutSessions.get(sessionId)
    if (!session) throw new Error(`Stripe stand-in: no checkout session ${sessionId}`)
    if (session.status !== 'open') {
      throw new Error(`Stripe stand-in: checkout session ${sessionId} is ${session.status}`)
    }
    if (!webhookUrl) throw new Error('Stripe stand-in: no webhook URL; call setWebhookUrl() before paying')
    // Everything changes before the first await, so a double-clicked Pay cannot make two subscriptions.
    let customer = state.customers.get(session.customer ?? '')
    if (!customer) {
      customer = makeCustomer({ email: session.customer_email ?? undefined })
      state.customers.set(customer.id, customer)
    }
    const meta = subscriptionMetadata.get(sessionId) ?? {}
    const sub = makeSubscription(customer.id, state.prices.get(priceId)!, meta)
    const invoice = makeInvoice(sub, customer, url)
    sub.latest_invoice = invoice.id
    state.subscriptions.set(sub.id, sub)
    state.invoices.set(invoice.id, invoice)
    // biome-ignore format: see the wire objects above
    const customer_details = {
      email: customer.email, name: customer.name ?? null, tax_exempt: 'none', tax_ids: [], address: null,
      phone: null, business_name: null, individual_name: null,
    }
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      customer: customer.id,
      subscription: sub.id,
      invoice: invoice.id,
      customer_details,
    } satisfies Partial<WireCheckoutSession>)
    const failures = await send([
      notice('checkout.session.completed', session),
      notice('customer.subscription.created', sub),
      notice('invoice.paid', invoice),
    ])
    if (failures.length > 0) throw new Error(`Stripe stand-in: webhook not accepted: ${failures.join(', ')}`)
  }

  function cancel(sub: WireSubscription, details: FormObject = {}): Notice {
    if (sub.status === 'canceled') {
      throw invalid('A canceled subscription can only update its cancellation_details and metadata.')
    }
    const t = now()
    const text = (v: FormValue | undefined) => (typeof v === 'string' ? v : null)
    const reason = 'cancellation_requested'
    const cancellation_details = { comment: text(details.comment), feedback: text(details.feedback), reason }
    // biome-ignore format: see the wire objects above
    Object.assign(sub, {
      status: 'canceled', canceled_at: t, ended_at: t, cancel_at: null, cancel_at_period_end: false,
      cancellation_details: { ...cancellation_details, feedback_option: null },
    } satisfies Partial<WireSubscription>)
    return notice('customer.subscription.deleted', sub)
  }

  function createCheckoutSession(params: FormObject): WireCheckoutSession {
    const allowed = 'mode line_items success_url cancel_url customer customer_email client_reference_id'
    const more = 'metadata subscription_data allow_promotion_codes locale payment_method_types expand'
    allowOnly(params, `${allowed} ${more}`.split(' '))
    const mode = required(params, 'mode')
    if (mode !== 'subscription') {
      throw invalid(`The stand-in only models mode=subscription, not ${mode}.`, 'mode')
    }
    const items = params.line_items
    if (!Array.isArray(items) || items.length === 0) {
      throw invalid('Missing required param: line_items.', 'line_items', 'parameter_missing')
    }
    for (const [i, item] of items.entries()) {
      const price = typeof item === 'object' && !Array.isArray(item) ? item.price : undefined
      if (typeof price !== 'string' || !state.prices.has(price)) {
        missing('price', String(price), `line_items[${i}][price]`)
      }
    }
    const customer = optString(params, 'customer')
    if (customer && !state.customers.has(customer)) missing('customer', customer, 'customer')
    const customerEmail = optString(params, 'customer_email')
    if (customer && customerEmail) {
      throw invalid('You may only specify one of these parameters: customer, customer_email.', 'customer')
    }
    const subscriptionData = optHash(params, 'subscription_data') ?? {}
    allowOnly(subscriptionData, ['metadata', 'description'])
    const id = newId('cs_test_', 58)
    subscriptionMetadata.set(id, mergeMetadata({}, subscriptionData.metadata, 'subscription_data[metadata]'))
    const created = now()
    const text = (key: string) => optString(params, key) ?? null
    // biome-ignore format: see the wire objects above
    return {
      id, object: 'checkout.session', mode: 'subscription', status: 'open', payment_status: 'unpaid',
      url: `${url}/checkout/${id}`, created, expires_at: created + dayS, livemode: false,
      ui_mode: 'hosted_page',
      success_url: text('success_url'), cancel_url: text('cancel_url'),
      client_reference_id: text('client_reference_id'),
      customer: customer ?? null, customer_email: customerEmail ?? null, customer_details: null,
      metadata: mergeMetadata({}, params.metadata), locale: text('locale'),
      subscription: null, invoice: null, payment_intent: null, setup_intent: null, payment_link: null,
      currency: pro.currency, amount_subtotal: pro.unitAmount, amount_total: pro.unitAmount,
      allow_promotion_codes: optBoolean(params, 'allow_promotion_codes') ?? null,
      customer_creation: customer ? null : 'always', payment_method_types: ['card'], client_secret: null,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    }
  }

  function listSubscriptions(params: FormObject) {
    allowOnly(params, ['customer', 'status', 'price', 'limit', 'starting_after', 'expand'])
    const [customer, status, price] = ['customer', 'status', 'price'].map((k) => optString(params, k))
    // Newest first; without a status Stripe leaves canceled subscriptions out.
    let found = [...state.subscriptions.values()].reverse().filter((s) => {
      if (customer && s.customer !== customer) return false
      if (price && !s.items.data.some((i) => i.price.id === price)) return false
      if (status === 'all') return true
      if (status === 'ended') return s.status === 'canceled' || s.status === 'incomplete_expired'
      return status ? s.status === status : s.status !== 'canceled' && s.status !== 'incomplete_expired'
    })
    const after = optString(params, 'starting_after')
    if (after) found = found.slice(found.findIndex((s) => s.id === after) + 1)
    const limit = Number(optString(params, 'limit') ?? 10)
    return { ...list(found.slice(0, limit), '/v1/subscriptions'), has_more: found.length > limit }
  }

  function updateSubscription(params: FormObject, sub: WireSubscription) {
    allowOnly(params, ['cancel_at_period_end', 'metadata', 'description', 'proration_behavior', 'expand'])
    const before = clone(sub)
    const atPeriodEnd = optBoolean(params, 'cancel_at_period_end')
    const description = optString(params, 'description')
    if (sub.status === 'canceled' && (atPeriodEnd !== undefined || description !== undefined)) {
      throw invalid('A canceled subscription can only update its cancellation_details and metadata.')
    }
    if (atPeriodEnd !== undefined) {
      // Recent API versions also express "at period end" as cancel_at = the item's period end.
      sub.cancel_at_period_end = atPeriodEnd
      sub.cancel_at = atPeriodEnd ? sub.items.data[0]!.current_period_end : null
      sub.canceled_at = atPeriodEnd ? now() : null
      sub.cancellation_details = {
        ...sub.cancellation_details!,
        reason: atPeriodEnd ? 'cancellation_requested' : null,
      }
    }
    if (description !== undefined) sub.description = description || null
    sub.metadata = mergeMetadata(sub.metadata, params.metadata)
    const changed = Object.entries(before).filter(
      ([k, v]) => JSON.stringify(v) !== JSON.stringify(sub[k as 'id']),
    )
    if (changed.length > 0) {
      sendLater([notice('customer.subscription.updated', sub, Object.fromEntries(changed))])
    }
    return sub
  }

  const customerFields = ['email', 'name', 'description', 'phone'] as const
  type Handler = (params: FormObject, id: string) => object
  const routes: Record<string, Handler> = {
    'POST /v1/customers': (params) => {
      allowOnly(params, [...customerFields, 'metadata', 'expand'])
      const fields = Object.fromEntries(customerFields.map((k) => [k, optString(params, k)]))
      const customer = { ...makeCustomer(fields), metadata: mergeMetadata({}, params.metadata) }
      state.customers.set(customer.id, customer)
      return customer
    },
    'GET /v1/customers': (params) => {
      allowOnly(params, ['email', 'limit', 'expand'])
      const email = optString(params, 'email')
      const found = [...state.customers.values()].reverse().filter((c) => !email || c.email === email)
      return list(found.slice(0, Number(optString(params, 'limit') ?? 10)), '/v1/customers')
    },
    'GET /v1/customers/:id': (_, id) => state.customers.get(id) ?? missing('customer', id),
    'POST /v1/customers/:id': (params, id) => {
      const customer = state.customers.get(id) ?? missing('customer', id)
      allowOnly(params, [...customerFields, 'metadata', 'expand'])
      for (const key of customerFields) {
        const value = optString(params, key)
        if (value !== undefined) customer[key] = value || null
      }
      customer.metadata = mergeMetadata(customer.metadata, params.metadata)
      return customer
    },
    'POST /v1/checkout/sessions': (params) => {
      const session = createCheckoutSession(params)
      state.checkoutSessions.set(session.id, session)
      return session
    },
    'GET /v1/checkout/sessions/:id': (_, id) =>
      state.checkoutSessions.get(id) ?? missing('checkout.session', id),
    'GET /v1/checkout/sessions': (params) => {
      allowOnly(params, ['customer', 'status', 'limit', 'starting_after', 'expand'])
      const [customer, status] = ['customer', 'status'].map((k) => optString(params, k))
      const found = [...state.checkoutSessions.values()]
        .reverse()
        .filter((c) => (!customer || c.customer === customer) && (!status || c.status === status))
      return list(found.slice(0, Number(optString(params, 'limit') ?? 10)), '/v1/checkout/sessions')
    },
    // An open session only: its page can no longer be paid.
    'POST /v1/checkout/sessions/:id/expire': (params, id) => {
      allowOnly(params, ['expand'])
      const session = state.checkoutSessions.get(id) ?? missing('checkout.session', id)
      if (session.status !== 'open')
        throw invalid(
          `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`,
        )
      Object.assign(session, { status: 'expired' } satisfies Partial<WireCheckoutSession>)
      return session
    },
    'POST /v1/billing_portal/sessions': (params) => {
      allowOnly(params, ['customer', 'return_url', 'locale', 'configuration', 'expand'])
      const customer = required(params, 'customer')
      if (!state.customers.has(customer)) missing('customer', customer, 'customer')
      const id = newId('bps_')
      // biome-ignore format: see the wire objects above
      const session: WirePortalSession = {
        id, object: 'billing_portal.session', customer, url: `${url}/portal/${id}`, created: now(),
        return_url: optString(params, 'return_url') ?? null, configuration: 'bpc_standin', livemode: false,
        customer_account: null, flow: null, locale: null, on_behalf_of: null,
      }
      state.portalSessions.set(id, session)
      return session
    },
    'GET /v1/subscriptions': listSubscriptions,
    'GET /v1/subscriptions/:id': (_, id) => state.subscriptions.get(id) ?? missing('subscription', id),
    'POST /v1/subscriptions/:id': (params, id) =>
      updateSubscription(params, state.subscriptions.get(id) ?? missing('subscription', id)),
    'DELETE /v1/subscriptions/:id': (params, id) => {
      const sub = state.subscriptions.get(id) ?? missing('subscription', id)
      allowOnly(params, ['cancellation_details', 'invoice_now', 'prorate', 'expand'])
      sendLater([cancel(sub, optHash(params, 'cancellation_details'))])
      return sub
    },
    'GET /v1/invoices/:id': (_, id) => state.invoices.get(id) ?? missing('invoice', id),
    'GET /v1/prices/:id': (_, id) => state.prices.get(id) ?? missing('price', id),
  }

  function api(method: string, path: string, params: FormObject): object {
    // /v1/<resource>[/<id>], where checkout and billing_portal resources have two segments.
    const [, resource, id = '', extra] =
      /^\/v1\/([a-z_]+(?:\/sessions)?)(?:\/([^/]+))?(\/.*)?$/.exec(path) ?? []
    const handler = routes[`${method} /v1/${resource}${id ? '/:id' : ''}${extra ?? ''}`]
    if (!handler) {
      const help = 'Please see https://stripe.com/docs or we can help at https://support.stripe.com/.'
      const message = `Unrecognized request URL (${method}: ${path}). ${help}`
      throw new ApiError(404, { type: 'invalid_request_error', message })
    }
    const body = clone(handler(params, decodeURIComponent(id))) as Record<string, unknown>
    const paths = params.expand === undefined ? [] : [params.expand].flat()
    for (const p of paths) if (typeof p === 'string') expand(body, p.split('.'), p)
    return body
  }

  async function handleApi(req: IncomingMessage, res: ServerResponse, method: string, target: URL) {
    const headers = {
      'content-type': 'application/json',
      'request-id': newId('req_', 14),
      'stripe-version': Stripe.API_VERSION,
      // Our failures are bugs, not blips: keep the SDK from retrying them with back-off.
      'stripe-should-retry': 'false',
    }
    const answer = (status: number, json: string, extra: Record<string, string> = {}) =>
      res.writeHead(status, { ...headers, ...extra }).end(json)
    const raw = (await readBody(req, bodyLimit)).toString('utf8')
    const auth = req.headers.authorization ?? ''
    if (auth !== `Bearer ${secretKey}`) {
      const key = auth.replace(/^Bearer\s+/i, '')
      const masked = `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`
      const message = key
        ? `Invalid API Key provided: ${masked}`
        : 'You did not provide an API key. You need to provide your API key in the Authorization header, ' +
          "using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY')."
      const body = JSON.stringify({ error: { type: 'invalid_request_error', message } })
      return answer(401, body, { 'www-authenticate': 'Bearer realm="Stripe"' })
    }
    const params = parseStripeForm(method === 'POST' ? raw : target.search.slice(1))
    // Stripe ignores idempotency keys on GET and DELETE.
    const key = method === 'POST' ? req.headers['idempotency-key']?.toString() : undefined
    requests.push({ method, path: target.pathname, body: params, ...(key ? { idempotencyKey: key } : {}) })
    const fingerprint = `${method} ${target.pathname} ${JSON.stringify(params)}`
    const earlier = key ? idempotent.get(key) : undefined
    if (key && earlier?.fingerprint === fingerprint) {
      return answer(earlier.status, earlier.json, { 'idempotency-key': key, 'idempotent-replayed': 'true' })
    }
    if (key && earlier) {
      const message =
        'Keys for idempotent requests can only be used with the same parameters they were first used with. ' +
        `Try using a key other than '${key}' if you meant to execute a different request.`
      return answer(400, JSON.stringify({ error: { type: 'idempotency_error', message } }))
    }
    try {
      const json = JSON.stringify(api(method, target.pathname, params), null, 2)
      if (key) idempotent.set(key, { fingerprint, status: 200, json })
      answer(200, json, key ? { 'idempotency-key': key } : {})
    } catch (err) {
      if (!(err instanceof ApiError)) throw err
      const code = err.body.code
      const doc = code ? { doc_url: `https://stripe.com/docs/error-codes/${code.replaceAll('_', '-')}` } : {}
      answer(err.status, JSON.stringify({ error: { ...err.body, ...doc } }))
    }
  }

  // Plain pages a browser test can click through: checkout (pay or cancel) and the customer portal.
  async function handlePage(res: ServerResponse, method: string, path: string, form: URLSearchParams) {
    const [, kind, id = '', action] = path.split('/')
    const html = (status: number, title: string, body: string) => {
      const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>`
      const page = `${head}</head><body><main><h1>${esc(title)}</h1>${body}</main></body></html>`
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(page)
    }
    const redirect = (location: string) => res.writeHead(303, { location }).end()
    const checkout = kind === 'checkout' ? state.checkoutSessions.get(id) : undefined
    const portal = kind === 'portal' ? state.portalSessions.get(id) : undefined

    if (checkout) {
      // Stripe fills in the {CHECKOUT_SESSION_ID} template so the success page can look the session up.
      const success = (checkout.success_url ?? `${url}/checkout/${id}`).replaceAll(
        '{CHECKOUT_SESSION_ID}',
        id,
      )
      if (method === 'POST' && action === 'pay' && checkout.status === 'open') {
        const failed = await completeCheckout(id).then(
          () => '',
          (err: unknown) => String(err),
        )
        if (failed) return html(502, 'Payment could not be completed', `<p role="alert">${esc(failed)}</p>`)
      }
      if (checkout.status === 'complete') {
        if (method === 'POST') return redirect(success)
        return html(200, 'Payment complete', `<a href="${esc(success)}">Continue</a>`)
      }
      const email = checkout.customer_email ?? state.customers.get(checkout.customer ?? '')?.email
      const parts = [
        `<p data-testid="price">${money(pro.unitAmount)} / ${pro.interval}</p>`,
        email ? `<p data-testid="email">${esc(email)}</p>` : '',
        `<form method="post" action="/checkout/${esc(id)}/pay">`,
        `<button type="submit">Pay ${money(pro.unitAmount)}</button></form>`,
        checkout.cancel_url ? `<a href="${esc(checkout.cancel_url)}">Cancel</a>` : '',
      ]
      return html(200, 'Subscribe to Loris Pro', parts.join(''))
    }

    if (portal) {
      if (method === 'POST' && action === 'cancel') {
        const sub = state.subscriptions.get(form.get('subscription') ?? '')
        if (!sub || sub.customer !== portal.customer) return html(404, 'Subscription not found', '')
        const failures = sub.status === 'canceled' ? [] : await send([cancel(sub)])
        if (failures.length > 0) {
          return html(502, 'Cancellation not confirmed', `<p role="alert">${esc(failures.join(', '))}</p>`)
        }
        return redirect(`/portal/${id}`)
      }
      const rows = [...state.subscriptions.values()]
        .filter((s) => s.customer === portal.customer)
        .map((s) => {
          const item = s.items.data[0]!
          const when = new Date(item.current_period_end * 1000).toISOString().slice(0, 10)
          const open = s.status !== 'canceled'
          const status = !open ? 'Canceled' : s.cancel_at ? `Cancels on ${when}` : `Renews on ${when}`
          return [
            '<section data-testid="subscription"><h2>Loris Pro</h2>',
            `<p>${money(item.price.unit_amount ?? 0)} / ${item.plan.interval}</p>`,
            `<p data-testid="subscription-status">${status}</p>`,
            open ? `<form method="post" action="/portal/${esc(id)}/cancel">` : '',
            open ? `<input type="hidden" name="subscription" value="${esc(s.id)}">` : '',
            open ? '<button type="submit">Cancel subscription</button></form>' : '',
            '</section>',
          ].join('')
        })
      const back = portal.return_url ? `<a href="${esc(portal.return_url)}">Return to Loris</a>` : ''
      return html(200, 'Manage your subscription', `${rows.join('') || '<p>No subscriptions.</p>'}${back}`)
    }
    return html(404, 'Not found', '')
  }

  const server = createServer((req, res) => {
    const method = req.method ?? 'GET'
    const target = new URL(req.url ?? '/', url)
    const work = target.pathname.startsWith('/v1/')
      ? handleApi(req, res, method, target)
      : readBody(req, bodyLimit).then((raw) => {
          const form = new URLSearchParams(raw.toString('utf8'))
          return handlePage(res, method, target.pathname, form)
        })
    work.catch((err: unknown) => {
      console.error('Stripe stand-in failed:', err)
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json', 'stripe-should-retry': 'false' })
      }
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(err) } }))
    })
  })
  url = await listen(server, opts.port ?? 0, '127.0.0.1')
  const port = Number(new URL(url).port)

  const waitForDeliveries = async () => {
    while (pending.size > 0) await Promise.allSettled([...pending])
  }

  return {
    url,
    host: '127.0.0.1',
    port,
    secretKey,
    webhookSecret,
    priceId,
    state,
    requests,
    deliveries,
    setWebhookUrl: (next) => {
      webhookUrl = next
    },
    signPayload,
    makeEvent,
    deliver,
    completeCheckout,
    waitForDeliveries,
    close: async () => {
      await waitForDeliveries()
      await closeServer(server)
    },
  }
}
