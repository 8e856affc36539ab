// The one interface to Stripe (conventions habit 7): the real SDK inside, pointed at the
// loopback stand-in in tests through STRIPE_API_URL. Edit when billing needs another call.
import type Stripe from 'stripe'
import type { Env } from '#server/env.ts'

export interface CheckoutInput {
  customerId: string
  userId: string
  priceId: string
  successUrl: string
  cancelUrl: string
  idempotencyKey: string
}

export interface Payments {
  /** Creates the user's customer; keyed by user id so a retried request never makes two. */
  createCustomer(user: { id: string; email: string }): Promise<string>
  createCheckout(input: CheckoutInput): Promise<string>
  createPortal(customerId: string, returnUrl: string): Promise<string>
  /** Every subscription of the customer, whatever its status, as Stripe holds it now. */
  listSubscriptions(customerId: string): Promise<Stripe.Subscription[]>
  cancelSubscription(subscriptionId: string): Promise<void>
  /** Expires the customer's Checkout pages still open (a day by default), so none can be paid; their ids. */
  expireOpenCheckouts(customerId: string): Promise<string[]>
  /** Verifies the Stripe-Signature header over the raw body; throws when it does not match. */
  verifyEvent(payload: string, signature: string, secret: string): Promise<Stripe.Event>
}

/** SDK options for a base URL such as http://127.0.0.1:4242 (the stand-in). */
export function stripeConnection(apiUrl: string | undefined): Stripe.StripeConfig {
  if (!apiUrl) return {}
  const url = new URL(apiUrl)
  const protocol = url.protocol === 'http:' ? 'http' : 'https'
  return {
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
  }
}

function createPayments(secretKey: string, env: Env): Payments {
  // The SDK is loaded with the first call, not with the server (decision 022): most instances
  // never bill, and those that do need it only on the billing pages and webhooks.
  let client: Promise<Stripe> | null = null
  const sdk = () => {
    client ??= import('stripe').then(
      ({ default: StripeSdk }) =>
        new StripeSdk(secretKey, {
          ...stripeConnection(env.STRIPE_API_URL),
          // Network retries reuse one idempotency key, so a retried POST never charges twice.
          maxNetworkRetries: 2,
          timeout: 20_000,
        }),
    )
    return client
  }
  return {
    async createCustomer(user) {
      const stripe = await sdk()
      const customer = await stripe.customers.create(
        { email: user.email, metadata: { userId: user.id } },
        { idempotencyKey: `loris-customer-${user.id}` },
      )
      return customer.id
    },
    async createCheckout(input) {
      const stripe = await sdk()
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          customer: input.customerId,
          client_reference_id: input.userId,
          line_items: [{ price: input.priceId, quantity: 1 }],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          metadata: { userId: input.userId },
          subscription_data: { metadata: { userId: input.userId } },
        },
        { idempotencyKey: input.idempotencyKey },
      )
      if (!session.url) throw new Error(`Checkout session ${session.id} has no URL`)
      return session.url
    },
    async createPortal(customerId, returnUrl) {
      const stripe = await sdk()
      const session = await stripe.billingPortal.sessions.create({
        customer: customerId,
        return_url: returnUrl,
      })
      return session.url
    },
    async listSubscriptions(customerId) {
      const stripe = await sdk()
      const all: Stripe.Subscription[] = []
      for await (const sub of stripe.subscriptions.list({
        customer: customerId,
        status: 'all',
        limit: 100,
      })) {
        all.push(sub)
      }
      return all
    },
    async cancelSubscription(subscriptionId) {
      const stripe = await sdk()
      await stripe.subscriptions.cancel(subscriptionId)
    },
    async expireOpenCheckouts(customerId) {
      const stripe = await sdk()
      const open: string[] = []
      for await (const session of stripe.checkout.sessions.list({
        customer: customerId,
        status: 'open',
        limit: 100,
      }))
        open.push(session.id)
      for (const id of open) await stripe.checkout.sessions.expire(id)
      return open
    },
    verifyEvent: async (payload, signature, secret) =>
      (await sdk()).webhooks.constructEventAsync(payload, signature, secret),
  }
}

// One SDK client per environment: routes and cancelSubscriptionForUser share it.
const cache = new WeakMap<Env, Payments>()

/** Stripe for this deployment, or null when STRIPE_SECRET_KEY is not set. */
export function paymentsFor(env: Env): Payments | null {
  if (!env.STRIPE_SECRET_KEY) return null
  let payments = cache.get(env)
  if (!payments) {
    payments = createPayments(env.STRIPE_SECRET_KEY, env)
    cache.set(env, payments)
  }
  return payments
}
