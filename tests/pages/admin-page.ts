import type { Page } from 'playwright-core'
import { toastOnScreen } from './toasts.ts'

export type AdminTabName = 'People' | 'Waitlist' | 'Usage and impact' | 'Plan limits' | 'Audit log'

/** /admin, the operator's console: tabs for people, the waitlist, usage, plan limits, the audit log. */
export class AdminPage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async open(tab?: 'people' | 'waitlist' | 'usage' | 'limits' | 'audit') {
    await this.page.goto(`${this.baseUrl}/admin${tab ? `?tab=${tab}` : ''}`)
    await this.heading().waitFor()
  }

  heading() {
    return this.page.getByRole('heading', { name: "Operator's console", level: 1 })
  }

  async showTab(name: AdminTabName) {
    await this.page.getByRole('tab', { name }).click()
    return this.panel(name)
  }

  panel(name: AdminTabName) {
    return this.page.getByRole('tabpanel', { name })
  }

  /** Searches People by e-mail; answers the person's card. */
  async findPerson(email: string) {
    const panel = this.panel('People')
    await panel.getByLabel('E-mail contains').fill(email)
    await panel.getByRole('button', { name: 'Search' }).click()
    const people = panel.getByRole('list', { name: 'People' }).getByRole('listitem')
    await people.filter({ hasText: email }).first().waitFor()
    return this.person(email)
  }

  person(email: string) {
    return this.panel('People').getByRole('article', { name: email })
  }

  limitField(plan: 'Free plan' | 'Premium plan', label: string) {
    return this.panel('Plan limits').getByRole('group', { name: plan }).getByLabel(label, { exact: true })
  }

  toast(...texts: (string | RegExp)[]) {
    return toastOnScreen(this.page, ...texts)
  }
}
