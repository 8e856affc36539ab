import type { Page } from 'playwright-core'

/** The /chat screen: header, user menu and the sign-in dialog. */
export class ChatPage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async open(query = '') {
    await this.page.goto(`${this.baseUrl}/chat${query}`)
    await this.page.getByTestId('app-title').waitFor()
  }

  title() {
    return this.page.getByTestId('app-title')
  }

  signInButton() {
    return this.page.getByRole('button', { name: 'Sign In', exact: true })
  }

  userMenuButton() {
    return this.page.getByRole('button', { name: 'User menu' })
  }

  dialog() {
    return this.page.getByRole('dialog', { name: 'Welcome to Loris' })
  }

  async openSignIn() {
    await this.signInButton().click()
    await this.dialog().waitFor()
  }

  async fillCredentials(tab: 'Sign in' | 'Sign up', email: string, password: string) {
    const dialog = this.dialog()
    await dialog.getByRole('tab', { name: tab }).click()
    const panel = dialog.getByRole('tabpanel', { name: tab })
    await panel.getByLabel('Email').fill(email)
    await panel.getByLabel('Password').fill(password)
    await panel.getByRole('button', { name: tab === 'Sign in' ? 'Sign in' : 'Create account' }).click()
  }

  async signUp(email: string, password: string) {
    await this.openSignIn()
    await this.fillCredentials('Sign up', email, password)
    await this.userMenuButton().waitFor()
  }

  async signIn(email: string, password: string) {
    await this.openSignIn()
    await this.fillCredentials('Sign in', email, password)
    await this.userMenuButton().waitFor()
  }

  async openUserMenuItem(name: string) {
    await this.userMenuButton().click()
    await this.page.getByRole('menuitem', { name }).click()
  }

  async signOut() {
    await this.openUserMenuItem('Sign Out')
    await this.signInButton().waitFor()
  }

  toast(text: string | RegExp) {
    return this.page.getByRole('status').filter({ hasText: text }).first()
  }
}
