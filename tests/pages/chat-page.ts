import type { Page } from 'playwright-core'
import { toastOnScreen } from './toasts.ts'

/** The /chat screen: header, user menu, sign-in dialog, conversation and composer. */
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
    return toastOnScreen(this.page, text)
  }

  /**
   * Starts waiting for a toast now, before the action that shows it; await the result after the
   * action. A toast stays 5 s, and an action that then waits for the next screen can take longer
   * than that on a loaded machine.
   */
  watchToast(text: string | RegExp): Promise<void> {
    const seen = this.toast(text).waitFor()
    // Awaited by the caller; a failure before then must not surface as an unhandled rejection.
    seen.catch(() => undefined)
    return seen
  }

  composer() {
    return this.page.getByRole('textbox', { name: 'Message' })
  }

  sendButton() {
    return this.page.getByRole('button', { name: 'Send message' })
  }

  stopButton() {
    return this.page.getByRole('button', { name: 'Stop generating' })
  }

  /** Types into the composer and presses Enter. */
  async send(text: string) {
    await this.composer().fill(text)
    await this.composer().press('Enter')
  }

  /** From the keyboard: a toast may sit over the button's corner on wide screens. */
  async stop() {
    await this.stopButton().press('Enter')
  }

  exchanges() {
    return this.page.getByTestId('exchange')
  }

  exchange(userText: string | RegExp) {
    return this.exchanges().filter({
      has: this.page.getByTestId('user-message').filter({ hasText: userText }),
    })
  }

  reply(userText: string | RegExp) {
    return this.exchange(userText).getByTestId('assistant-reply')
  }

  /** Waits until the reply to that message has finished arriving. */
  async waitForReply(userText: string | RegExp, contains: string | RegExp = /\S/) {
    const reply = this.reply(userText)
      .and(this.page.locator('[aria-busy="false"]'))
      .filter({ hasText: contains })
    await reply.waitFor()
    return reply
  }

  async chooseMode(label: 'Gemini' | 'Loris eco' | 'ChatGPT') {
    await this.page.getByRole('button', { name: /^Chat mode:/ }).click()
    await this.page.getByRole('menuitemradio', { name: label }).click()
    await this.page.getByRole('button', { name: `Chat mode: ${label}` }).waitFor()
  }

  /** Opens the chat mode menu (close it with Escape). */
  async openModeMenu() {
    await this.page.getByRole('button', { name: /^Chat mode:/ }).click()
    await this.page.getByRole('menu').waitFor()
  }

  modeMenuItem(label: 'Gemini' | 'Loris eco' | 'ChatGPT') {
    return this.page.getByRole('menuitemradio', { name: label })
  }

  async borderLeftColor(userText: string | RegExp) {
    return this.reply(userText).evaluate((el) => getComputedStyle(el).borderLeftColor)
  }

  /** A reply's own text (and its note), without the footer of actions and figures. */
  async replyText(userText: string | RegExp) {
    return this.reply(userText).evaluate((el) =>
      [...el.childNodes]
        .filter((n) => !(n instanceof HTMLElement && n.dataset.testid === 'reply-footer'))
        .map((n) => n.textContent)
        .join(''),
    )
  }

  /** The footer under a reply: versions, actions, model, time and CO2. */
  replyFooter(userText: string | RegExp) {
    return this.reply(userText).getByTestId('reply-footer')
  }

  /** Edits a sent message in place and sends the new text as a version of that turn. */
  async editMessage(userText: string | RegExp, newText: string) {
    const exchange = this.exchange(userText)
    await exchange.getByTestId('user-message').hover()
    await exchange.getByRole('button', { name: 'Edit message' }).click()
    const box = this.page.getByRole('textbox', { name: 'Edit your message' })
    await box.fill(newText)
    await box.press('Enter')
  }

  /** Regenerates a reply with the mode chosen in its menu. */
  async regenerate(userText: string | RegExp, mode: 'Gemini' | 'Loris eco' | 'ChatGPT') {
    await this.replyFooter(userText).getByRole('button', { name: 'Regenerate' }).click()
    await this.page.getByRole('menuitem', { name: new RegExp(`^${mode}`) }).click()
  }

  /** The 'n/m' of a turn's version switcher. */
  async versionText(userText: string | RegExp) {
    const text = (await this.replyFooter(userText).getByTestId('version-switcher').textContent()) ?? ''
    return /(\d+\/\d+)/.exec(text)?.[1] ?? text
  }
}
