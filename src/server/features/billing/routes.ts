import { type Context, Hono, type MiddlewareHandler } from 'hono'
import type { SubscriptionStatus } from '#contract/billing.ts'
import { publicOrigin } from '#server/env.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { enforceRateLimit } from '#server/lib/rate-limit.ts'
import { requireUser } from '#server/lib/session.ts'
import { planOf } from '#server/lib/usage.ts'
import { paymentsFor } from './payments.ts'
import { claimCustomer } from './queries.ts'
import { syncUserSubscription } from './sync.ts'
import { handleStripeEvent } from './webhook.ts'

const NOT_CONFIGURED = 'Payments are not configured on this server'
const ALREADY_SUBSCRIBED =
  'You already have an active Loris Pro subscription. Manage it from Settings, under Payment Management.'
// Retries and double clicks within this window get the same Checkout page, not a second one.
const CHECKOUT_WINDOW_S = 10 * 60

const unavailable = (message = NOT_CONFIGURED) => new AppError('service_unavailable:payments', message)

/** Spec sections 2, 4 and 7: subscribe, customer portal, status, and the Stripe webhook. */
export function billingRoutes(deps: AppDeps) {
  const { db } = deps.database
  const { env } = deps
  const payments = paymentsFor(env)
  const auth = requireUser(deps)
  const now = () => deps.now?.() ?? new Date()

  // Without Stripe the billing actions answer 503 (after sign-in, so a visitor gets the 401 the
  // client stops retrying on); the status is read from stored state and needs no Stripe.
  const configured = () => {
    if (!payments) throw unavailable()
    return payments
  }

  const requirePayments: MiddlewareHandler<AppEnv> = async (_c, next) => {
    configured()
    await next()
  }
  // Stripe's own errors are logged, never shown; the person gets something to act on.
  const viaStripe = async <T>(c: Context<AppEnv>, what: string, call: () => Promise<T>): Promise<T> => {
    try {
      return await call()
    } catch (err) {
      if (err instanceof AppError) throw err
      c.get('log').error({ err }, `stripe: ${what} failed`)
      throw new AppError('bad_gateway:payments', `Stripe could not ${what}. Please try again in a moment.`)
    }
  }

  return new Hono<AppEnv>()
    .post('/subscribe', auth, requirePayments, async (c) => {
      const stripe = configured()
      if (!env.STRIPE_PRICE_ID) throw unavailable('Subscriptions are not configured on this server')
      const user = c.get('user')
      await enforceRateLimit(db, `subscribe:${user.id}`, { limit: 20, windowSeconds: 15 * 60 })
      // Pro without a customer was granted outside Stripe: nothing to sell until it ends.
      if (planOf(user, now()) === 'premium' && !user.stripeCustomerId) {
        throw new AppError('conflict:subscription', ALREADY_SUBSCRIBED)
      }

      let customerId = user.stripeCustomerId
      let version = `${user.stripeSubscriptionId ?? 'none'}:${user.subscriptionStatus ?? 'none'}`
      if (customerId) {
        // Stripe decides, not the stored flag: a webhook can lag behind a payment (no second
        // subscription) or behind a cancellation (no 409 for someone who is no longer Pro).
        const read = await syncUserSubscription(db, stripe, user.id, customerId, c.get('log'))
        if (read.state.isPremium) throw new AppError('conflict:subscription', ALREADY_SUBSCRIBED)
        version = `${read.state.stripeSubscriptionId ?? 'none'}:${read.state.subscriptionStatus ?? 'none'}`
      } else {
        const created = await viaStripe(c, 'create your billing account', () => stripe.createCustomer(user))
        customerId = (await claimCustomer(db, user.id, created)) ?? created
      }

      const origin = publicOrigin(env)
      const window = Math.floor(now().getTime() / 1000 / CHECKOUT_WINDOW_S)
      const checkout = {
        customerId,
        userId: user.id,
        priceId: env.STRIPE_PRICE_ID,
        successUrl: `${origin}/chat?subscription=success`,
        cancelUrl: `${origin}/chat`,
        idempotencyKey: `loris-checkout-${user.id}-${customerId}-${version}-${window}`,
      }
      const url = await viaStripe(c, 'start the checkout', () => stripe.createCheckout(checkout))
      c.get('log').info({ userId: user.id, customerId }, 'checkout session created')
      return c.json({ url }, 200)
    })
    .post('/create-portal-session', auth, requirePayments, async (c) => {
      const stripe = configured()
      const customerId = c.get('user').stripeCustomerId
      if (!customerId) {
        throw new AppError(
          'bad_request:billing',
          'There is no billing account for this user yet. Subscribe to Loris Pro first.',
        )
      }
      const returnUrl = `${publicOrigin(env)}/account`
      const url = await viaStripe(c, 'open the customer portal', () =>
        stripe.createPortal(customerId, returnUrl),
      )
      return c.json({ url }, 200)
    })
    .get('/subscription/status', auth, (c) => {
      const user = c.get('user')
      const end = user.subscriptionEndDate
      const body: SubscriptionStatus = {
        // A paid period that has ended is not a subscription, even before Stripe's webhook says so.
        isSubscribed: planOf(user, now()) === 'premium',
        subscription: {
          current_period_end: end ? Math.floor(end.getTime() / 1000) : null,
          status: user.subscriptionStatus,
        },
      }
      return c.json(body, 200)
    })
    .post('/stripe/webhook', requirePayments, async (c) => {
      const stripe = configured()
      const secret = env.STRIPE_WEBHOOK_SECRET
      if (!secret) throw unavailable('Stripe webhooks are not configured on this server')
      const signature = c.req.header('stripe-signature')
      if (!signature) throw new AppError('bad_request:signature', 'Missing Stripe-Signature header')
      // The signature covers the exact bytes Stripe sent: verify the raw text, never parsed JSON.
      const payload = await c.req.text()
      const event = await stripe.verifyEvent(payload, signature, secret).catch((err: unknown) => {
        c.get('log').warn({ err: err instanceof Error ? err.message : err }, 'stripe webhook rejected')
        throw new AppError('bad_request:signature', 'Webhook signature verification failed')
      })
      return c.json(await handleStripeEvent(db, stripe, event, c.get('log')), 200)
    })
}
