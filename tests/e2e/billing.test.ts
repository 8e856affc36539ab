import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccountBilling, StripePages, UpgradeDialog } from '../pages/billing-pages.ts'
import { ChatPage } from '../pages/chat-page.ts'
import { type AiStandIn, startAiStandIn } from '../stand-ins/ai-providers.ts'
import { type StripeStandIn, startStripeStandIn } from '../stand-ins/stripe.ts'
import { type AppServer, startAppServer } from './support/app-server.ts'
import { launchBrowser, type TestBrowser } from './support/browser.ts'

let stripe: StripeStandIn
let ai: AiStandIn
let server: AppServer
let browser: TestBrowser

beforeAll(async () => {
  stripe = await startStripeStandIn()
  ai = await startAiStandIn()
  server = await startAppServer({
    GEMINI_API_KEY: 'test',
    GEMINI_BASE_URL: ai.geminiBaseUrl,
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_PRICE_ID: stripe.priceId,
    STRIPE_API_URL: stripe.url,
  })
  stripe.setWebhookUrl(`${server.url}/api/stripe/webhook`)
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await stripe?.close()
  await ai?.close()
})

const password = 'a strong password'
const newEmail = (tag: string) => `billing-${tag}-${Date.now()}@example.com`

async function signedIn(tag: string) {
  const tab = await browser.newPage()
  // The stand-in's pages have no icon; Chromium's 404 for it is not the app's error.
  await tab.page.route(`${stripe.url}/favicon.ico`, (route) => route.fulfill({ status: 204 }))
  const chat = new ChatPage(tab.page, server.url)
  await chat.open()
  await chat.signUp(newEmail(tag), password)
  return {
    ...tab,
    chat,
    account: new AccountBilling(tab.page, server.url),
    dialog: new UpgradeDialog(tab.page),
    stripePages: new StripePages(tab.page, stripe.url),
  }
}

describe('the free-tier prompt in the chat', () => {
  it('opens at the fifth message; paying at Checkout makes the user Pro', async () => {
    const { page, chat, dialog, stripePages, account, unexpectedErrors } = await signedIn('fifth')
    for (let i = 1; i <= 4; i++) {
      await chat.send(`Question number ${i}`)
      await chat.waitForReply(`Question number ${i}`)
    }
    expect(await dialog.root().count()).toBe(0)
    await chat.send('Question number 5')
    await chat.waitForReply('Question number 5')
    await dialog.root().getByRole('heading', { name: 'Upgrade to Loris Pro' }).waitFor()

    await dialog.subscribeButton().click()
    await stripePages.waitForCheckout()
    const welcomed = chat.watchToast('Welcome to Loris Pro!')
    await stripePages.pay()
    // Back at /chat?subscription=success: the welcome toast, then the account page.
    await page.waitForURL(`${server.url}/account`)
    await welcomed
    await account
      .accountType()
      .filter({ hasText: /^Premium \(Active until / })
      .waitFor()
    await chat.open()
    await chat.title().filter({ hasText: 'Loris Pro' }).waitFor()
    expect(unexpectedErrors()).toEqual([])
  })
})

describe('Loris Pro from the account page', () => {
  it('subscribes through Checkout, becomes Pro, then cancels in the portal', async () => {
    const { page, chat, account, dialog, stripePages, unexpectedErrors } = await signedIn('account')
    expect(await chat.title().textContent()).toBe('Loris')

    await account.open()
    expect(await account.accountType().textContent()).toBe('Free')
    expect(await account.paymentManagement().count()).toBe(0)
    await account.upgradeCard().getByRole('button', { name: 'See Loris Pro' }).click()
    await dialog.root().waitFor()
    expect(
      await dialog
        .root()
        .getByText(/10 percent of your subscription/)
        .isVisible(),
    ).toBe(true)
    for (const benefit of ['No ads', 'Far higher usage limits', 'The best models']) {
      expect(await dialog.root().getByText(benefit, { exact: true }).isVisible()).toBe(true)
    }

    await dialog.subscribeButton().click()
    await stripePages.waitForCheckout()
    const delivered = stripe.deliveries.length
    // Paying delivers signed webhooks to the app, then sends the browser to the success URL.
    const welcomed = chat.watchToast('Welcome to Loris Pro!')
    await stripePages.pay()
    await page.waitForURL(`${server.url}/account`)
    await welcomed
    expect(
      await chat
        .toast('Your subscription has been activated. Enjoy unlimited eco-conscious AI assistance.')
        .isVisible(),
    ).toBe(true)
    expect(stripe.deliveries.slice(delivered).map((d) => [d.type, d.status])).toEqual([
      ['checkout.session.completed', 200],
      ['customer.subscription.created', 200],
      ['invoice.paid', 200],
    ])

    const subscription = [...stripe.state.subscriptions.values()].at(-1)
    const periodEnd = new Date((subscription?.items.data[0]?.current_period_end ?? 0) * 1000)
    const until = periodEnd.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })
    await account
      .accountType()
      .filter({ hasText: `Premium (Active until ${until})` })
      .waitFor()
    await account.paymentManagement().waitFor()
    expect(await account.upgradeCard().count()).toBe(0)

    await page.getByRole('link', { name: 'Back to Chat' }).click()
    await page.waitForURL(new RegExp(`^${server.url}/chat(/[0-9a-f-]{36})?$`))
    await chat.title().filter({ hasText: 'Loris Pro' }).waitFor()

    // The portal: cancelling there sends customer.subscription.deleted; the app turns Free.
    await account.open()
    await account.manageButton().click()
    await stripePages.waitForPortal()
    await stripePages.cancelSubscription()
    await stripePages.returnToLoris()
    await page.waitForURL(`${server.url}/account`)
    await account
      .accountType()
      .filter({ hasText: /^Free$/ })
      .waitFor()
    await account.upgradeCard().waitFor()
    expect(unexpectedErrors()).toEqual([])
  })

  it('closes the dialog with "Not now, keep talking for free"; a lapsed Pro is offered Pro again', async () => {
    const { page, chat, account, dialog, unexpectedErrors } = await signedIn('not-now')
    // A Pro whose end date has passed (the server serves them as free and lets them subscribe).
    await page.route(`${server.url}/api/session`, async (route) => {
      const res = await route.fetch()
      const { user } = await res.json()
      const lapsed = { ...user, isPremium: true, subscription_end_date: '2024-01-31T00:00:00.000Z' }
      await route.fulfill({ response: res, json: { user: lapsed } })
    })
    await page.reload()
    await chat.userMenuButton().waitFor()
    expect(await chat.title().textContent()).toBe('Loris')
    await account.open()
    expect(await account.accountType().textContent()).toBe('Free')
    expect(await account.paymentManagement().count()).toBe(0)
    await account.upgradeCard().getByRole('button', { name: 'See Loris Pro' }).click()
    await dialog.root().getByRole('heading', { name: 'Upgrade to Loris Pro' }).waitFor()
    await dialog.notNowButton().click()
    await dialog.root().waitFor({ state: 'hidden' })
    expect(unexpectedErrors()).toEqual([])
  })
  it('a payment whose webhook has not arrived yet: Subscribe answers with an error toast and Pro shows', async () => {
    const { page, chat, account, dialog, stripePages, unexpectedErrors } = await signedIn('late-webhook')
    await account.open()
    await account.upgradeCard().getByRole('button', { name: 'See Loris Pro' }).click()
    await dialog.subscribeButton().click()
    await stripePages.waitForCheckout()
    // The payment succeeds at Stripe while the app cannot be reached by its webhooks.
    const sessionId = new URL(page.url()).pathname.split('/').pop() as string
    stripe.setWebhookUrl('http://127.0.0.1:9/unreachable')
    try {
      await expect(stripe.completeCheckout(sessionId)).rejects.toThrow(/webhook not accepted/)
    } finally {
      stripe.setWebhookUrl(`${server.url}/api/stripe/webhook`)
    }
    await account.open()
    expect(await account.accountType().textContent()).toBe('Free')
    await account.upgradeCard().getByRole('button', { name: 'See Loris Pro' }).click()
    await dialog.subscribeButton().click()
    await chat.toast(/Subscription error/).waitFor()
    expect(await chat.toast(/already have an active Loris Pro subscription/).isVisible()).toBe(true)
    await account
      .accountType()
      .filter({ hasText: /^Premium \(Active until / })
      .waitFor()
    await account.paymentManagement().waitFor()
    // One subscription at Stripe, not two.
    const customer = [...stripe.state.checkoutSessions.values()].find((c) => c.id === sessionId)?.customer
    expect([...stripe.state.subscriptions.values()].filter((s) => s.customer === customer)).toHaveLength(1)
    expect(unexpectedErrors([/status of 409/])).toEqual([])
  })
})
