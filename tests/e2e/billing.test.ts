import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccountBilling, StripePages, UpgradeDialog } from '../pages/billing-pages.ts'
import { ChatPage } from '../pages/chat-page.ts'
import { type StripeStandIn, startStripeStandIn } from '../stand-ins/stripe.ts'
import { type AppServer, startAppServer } from './support/app-server.ts'
import { launchBrowser, type TestBrowser } from './support/browser.ts'

let stripe: StripeStandIn
let server: AppServer
let browser: TestBrowser

beforeAll(async () => {
  stripe = await startStripeStandIn()
  server = await startAppServer({
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
})

const password = 'a strong password'
const newEmail = (tag: string) => `billing-${tag}-${Date.now()}@example.com`

describe('Loris Pro from the account page', () => {
  it('subscribes through Checkout, becomes Pro, then cancels in the portal', async () => {
    const { page, unexpectedErrors } = await browser.newPage()
    const chat = new ChatPage(page, server.url)
    const account = new AccountBilling(page, server.url)
    const dialog = new UpgradeDialog(page)
    const stripePages = new StripePages(page, stripe.url)
    // The stand-in's pages have no icon; Chromium's 404 for it is not the app's error.
    await page.route(`${stripe.url}/favicon.ico`, (route) => route.fulfill({ status: 204 }))
    await chat.open()
    await chat.signUp(newEmail('account'), password)
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
    // Paying delivers signed webhooks to the app, then sends the browser to the success URL.
    await stripePages.pay()
    await page.waitForURL(`${server.url}/account`)
    await chat.toast('Welcome to Loris Pro!').waitFor()
    expect(
      await chat
        .toast('Your subscription has been activated. Enjoy unlimited eco-conscious AI assistance.')
        .isVisible(),
    ).toBe(true)
    expect(stripe.deliveries.map((d) => [d.type, d.status])).toEqual([
      ['checkout.session.completed', 200],
      ['customer.subscription.created', 200],
      ['invoice.paid', 200],
    ])

    const [subscription] = [...stripe.state.subscriptions.values()]
    const periodEnd = new Date((subscription?.items.data[0]?.current_period_end ?? 0) * 1000)
    const until = periodEnd.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' })
    await account
      .accountType()
      .filter({ hasText: `Premium (Active until ${until})` })
      .waitFor()
    await account.paymentManagement().waitFor()
    expect(await account.upgradeCard().count()).toBe(0)

    await page.getByRole('link', { name: 'Back to Chat' }).click()
    await page.waitForURL(`${server.url}/chat`)
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

  it('closes the dialog with "Not now, keep talking for free"', async () => {
    const { page, unexpectedErrors } = await browser.newPage()
    const chat = new ChatPage(page, server.url)
    const account = new AccountBilling(page, server.url)
    const dialog = new UpgradeDialog(page)
    await chat.open()
    await chat.signUp(newEmail('not-now'), password)
    await account.open()
    await account.upgradeCard().getByRole('button', { name: 'See Loris Pro' }).click()
    await dialog.notNowButton().click()
    await dialog.root().waitFor({ state: 'hidden' })
    expect(unexpectedErrors()).toEqual([])
  })
})
