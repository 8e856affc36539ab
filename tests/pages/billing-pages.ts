import type { Page } from 'playwright-core'

/** The upgrade dialog (spec sections 2 and 4), wherever it was opened from. */
export class UpgradeDialog {
  constructor(readonly page: Page) {}

  root() {
    return this.page.getByRole('dialog', { name: /Upgrade to Loris Pro|Loris Pro Subscription Active/ })
  }

  subscribeButton() {
    return this.root().getByRole('button', { name: 'Subscribe Now - $23.99/month' })
  }

  notNowButton() {
    return this.root().getByRole('button', { name: 'Not now, keep talking for free' })
  }
}

/** The Account tab's billing parts: the upgrade card (free) and Payment Management (Pro). */
export class AccountBilling {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async open() {
    await this.page.goto(`${this.baseUrl}/account`)
    await this.accountType().waitFor()
  }

  accountType() {
    return this.page.getByTestId('account-type')
  }

  upgradeCard() {
    return this.page.getByRole('region', { name: 'Upgrade to Loris Pro' })
  }

  paymentManagement() {
    return this.page.getByRole('region', { name: 'Payment Management' })
  }

  manageButton() {
    return this.page.getByRole('button', { name: 'Manage Payment Methods' })
  }
}

/** The Stripe stand-in's hosted pages: Checkout and the customer portal. */
export class StripePages {
  constructor(
    readonly page: Page,
    readonly stripeUrl: string,
  ) {}

  async waitForCheckout() {
    await this.page.waitForURL(`${this.stripeUrl}/checkout/**`)
    await this.page.getByRole('heading', { name: 'Subscribe to Loris Pro' }).waitFor()
  }

  async pay() {
    await this.page.getByRole('button', { name: 'Pay $23.99' }).click()
  }

  async waitForPortal() {
    await this.page.waitForURL(`${this.stripeUrl}/portal/**`)
    await this.page.getByRole('heading', { name: 'Manage your subscription' }).waitFor()
  }

  async cancelSubscription() {
    await this.page.getByRole('button', { name: 'Cancel subscription' }).click()
    await this.page.getByTestId('subscription-status').filter({ hasText: 'Canceled' }).waitFor()
  }

  async returnToLoris() {
    await this.page.getByRole('link', { name: 'Return to Loris' }).click()
  }
}
