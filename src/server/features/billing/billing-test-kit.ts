// Shared setup for the billing API tests: the app served on a loopback port (so the Stripe
// stand-in can deliver webhooks to it) and the real SDK pointed at the stand-in.
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { eq } from 'drizzle-orm'
import Stripe from 'stripe'
import { afterAll, beforeAll } from 'vitest'
import { stripeEvents, users } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { type StripeStandIn, startStripeStandIn } from '../../../../tests/stand-ins/stripe.ts'
import { stripeConnection } from './payments.ts'

export interface BillingKit {
  t: TestApp
  standIn: StripeStandIn
  /** The SDK as another Stripe client (the dashboard, the portal) would change things. */
  stripe: Stripe
  webhookUrl: string
  close(): Promise<void>
}

export async function startBillingKit(): Promise<BillingKit> {
  const standIn = await startStripeStandIn()
  const t = await createTestApp({
    STRIPE_SECRET_KEY: standIn.secretKey,
    STRIPE_WEBHOOK_SECRET: standIn.webhookSecret,
    STRIPE_PRICE_ID: standIn.priceId,
    STRIPE_API_URL: standIn.url,
  })
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  const { port } = server.address() as AddressInfo
  const webhookUrl = `http://127.0.0.1:${port}/api/stripe/webhook`
  standIn.setWebhookUrl(webhookUrl)
  const stripe = new Stripe(standIn.secretKey, stripeConnection(standIn.url))
  return {
    t,
    standIn,
    stripe,
    webhookUrl,
    async close() {
      await standIn.close()
      await new Promise((resolve) => server.close(resolve))
      await t.close()
    },
  }
}

/**
 * The kit of a test file: started before its tests (a fresh PGlite with every migration, slow
 * when the shared cores are busy), closed after them. The object answered is filled in once it
 * has started, so its fields are read in tests and hooks only.
 */
export function billingKitForFile(): BillingKit {
  const kit = {} as BillingKit
  beforeAll(async () => {
    Object.assign(kit, await startBillingKit())
  }, 120_000)
  afterAll(() => kit.close?.())
  return kit
}

export async function userRow(t: TestApp, id: string) {
  const [row] = await t.deps.database.db.select().from(users).where(eq(users.id, id))
  if (!row) throw new Error(`no user ${id}`)
  return row
}

export async function eventRows(t: TestApp, id: string) {
  return t.deps.database.db.select().from(stripeEvents).where(eq(stripeEvents.id, id))
}

/** The billing fields a test compares, in the units the API shows. */
export async function billingState(t: TestApp, id: string) {
  const u = await userRow(t, id)
  return {
    isPremium: u.isPremium,
    status: u.subscriptionStatus,
    subscriptionId: u.stripeSubscriptionId,
    start: u.subscriptionStartDate ? u.subscriptionStartDate.getTime() / 1000 : null,
    end: u.subscriptionEndDate ? u.subscriptionEndDate.getTime() / 1000 : null,
  }
}

/** A signed-up user who paid at the stand-in's checkout (webhooks delivered to the app). */
export async function subscribedUser(kit: BillingKit) {
  const { cookie, user } = await kit.t.signUp()
  const res = await kit.t.request('/api/subscribe', { method: 'POST', cookie })
  if (res.status !== 200) throw new Error(`subscribe failed: ${res.status} ${await res.text()}`)
  const { url } = (await res.json()) as { url: string }
  const sessionId = url.split('/').pop() as string
  await kit.standIn.completeCheckout(sessionId)
  const subscriptionId = kit.standIn.state.checkoutSessions.get(sessionId)?.subscription as string
  return { cookie, userId: user.id as string, sessionId, subscriptionId }
}
