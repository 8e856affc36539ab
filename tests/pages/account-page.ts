import type { Page } from 'playwright-core'
import { toastOnScreen } from './toasts.ts'

export type AccountTabName = 'Account' | 'Consumption' | 'Actions'

/** /account (spec section 2): side tabs, Profile Information, the Update Email dialog, Danger Zone. */
export class AccountPage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async open(tab?: 'account' | 'consumption' | 'actions') {
    await this.page.goto(`${this.baseUrl}/account${tab ? `?tab=${tab}` : ''}`)
    await this.page.getByRole('heading', { name: 'Settings' }).waitFor()
  }

  tab(name: AccountTabName) {
    return this.page.getByRole('tab', { name })
  }

  async showTab(name: AccountTabName) {
    await this.tab(name).click()
    await this.page.getByRole('tabpanel', { name }).waitFor()
  }

  profileEmail() {
    return this.page.getByTestId('profile-email')
  }

  editEmailButton() {
    return this.page.getByRole('button', { name: 'Edit email' })
  }

  emailDialog() {
    return this.page.getByRole('dialog', { name: 'Update Email' })
  }

  newEmailField() {
    return this.emailDialog().getByLabel('New Email Address')
  }

  /** Opens the dialog, types the address and submits (does not wait for the outcome). */
  async submitNewEmail(email: string) {
    if (!(await this.emailDialog().isVisible())) {
      await this.editEmailButton().click()
      await this.emailDialog().waitFor()
    }
    await this.newEmailField().fill(email)
    await this.emailDialog().getByRole('button', { name: 'Update Email' }).click()
  }

  deleteDialog() {
    return this.page.getByRole('alertdialog', { name: 'Delete your account?' })
  }

  async openDeleteDialog() {
    await this.showTab('Actions')
    await this.page.getByRole('button', { name: 'Delete Account' }).click()
    await this.deleteDialog().waitFor()
  }

  async confirmDelete() {
    await this.deleteDialog().getByRole('button', { name: 'Delete Account' }).click()
  }

  toast(text: string | RegExp) {
    return toastOnScreen(this.page, text)
  }
}
