// Settings and Google sign-in through the built server, the OpenID Connect stand-in (as Google)
// and the AI stand-in: edit e-mail, Google accounts, deleting an account, the draft round trip.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccountPage } from '../pages/account-page.ts'
import { ChatPage } from '../pages/chat-page.ts'
import { type AiStandIn, startAiStandIn } from '../stand-ins/ai-providers.ts'
import { googleEnv, type OidcStandIn, startOidcStandIn } from '../stand-ins/oidc.ts'
import { password, uniqueEmail } from './support/accounts.ts'
import { type AppServer, startAppServer } from './support/app-server.ts'
import { launchBrowser, type TestBrowser } from './support/browser.ts'

let ai: AiStandIn
let google: OidcStandIn
let server: AppServer
let browser: TestBrowser

beforeAll(async () => {
  ai = await startAiStandIn()
  google = await startOidcStandIn()
  server = await startAppServer({
    GEMINI_API_KEY: 'test',
    GEMINI_BASE_URL: ai.geminiBaseUrl,
    ...googleEnv(google),
  })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await google?.close()
  await ai?.close()
})

async function signedUp(viewport?: { width: number; height: number }) {
  const tab = await browser.newPage({ viewport })
  const chat = new ChatPage(tab.page, server.url)
  const email = uniqueEmail('account')
  await chat.open()
  await chat.signUp(email, password)
  return { ...tab, chat, account: new AccountPage(tab.page, server.url), email }
}

/** Clicks 'Continue with Google' in the sign-in dialog; the stand-in answers without a consent screen. */
async function continueWithGoogle(chat: ChatPage) {
  await chat.dialog().getByRole('button', { name: 'Continue with Google' }).click()
}

/** What the server answers a fresh API client (no browser state) for these credentials. */
async function apiLogin(email: string) {
  return fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
}

describe('settings', () => {
  it('edits the e-mail, refusing an invalid one with the spec message', async () => {
    const { page, account, unexpectedErrors } = await signedUp()
    await account.open()
    await account.submitNewEmail('not-an-email')
    await account.emailDialog().getByText('Please enter a valid email address').waitFor()
    expect(await account.newEmailField().getAttribute('aria-invalid')).toBe('true')

    const next = uniqueEmail('renamed')
    await account.submitNewEmail(next.toUpperCase())
    await account.toast('Your email has been updated successfully').waitFor()
    expect(await account.toast('Email updated').isVisible()).toBe(true)
    await account.emailDialog().waitFor({ state: 'hidden' })
    expect(await account.profileEmail().textContent()).toBe(next)

    // The form was reset: reopening shows an empty field.
    await account.editEmailButton().click()
    expect(await account.newEmailField().inputValue()).toBe('')
    await page.keyboard.press('Escape')

    await page.reload()
    await account.profileEmail().waitFor()
    expect(await account.profileEmail().textContent()).toBe(next)
    expect((await apiLogin(next)).status).toBe(200)
    expect(unexpectedErrors()).toEqual([])
  })

  it("shows the server's message when the address belongs to another account", async () => {
    const other = await signedUp()
    const { account } = await signedUp()
    await account.open()
    await account.submitNewEmail(other.email)
    await account.toast('Another account already uses this e-mail address').waitFor()
    expect(await account.toast('Error updating email').isVisible()).toBe(true)
    expect(await account.emailDialog().isVisible()).toBe(true)
  })

  it('switches tabs from the keyboard and keeps the tab in the URL', async () => {
    const { page, account } = await signedUp()
    await account.open()
    await account.tab('Account').focus()
    await page.keyboard.press('ArrowDown')
    await page.getByRole('tabpanel', { name: 'Consumption' }).waitFor()
    await page.waitForURL(/\/account\?tab=consumption$/)
    await page.keyboard.press('ArrowDown')
    await page.waitForURL(/\/account\?tab=actions$/)
    await page.reload()
    await page.getByRole('tabpanel', { name: 'Actions' }).waitFor()
    expect(await account.tab('Actions').getAttribute('aria-selected')).toBe('true')
    await page.getByRole('link', { name: 'Back to Chat' }).click()
    await page.waitForURL(new RegExp(`^${server.url}/chat(/[0-9a-f-]{36})?$`))
  })

  it('runs the tabs across the top on a phone, where arrow keys go left and right', async () => {
    const { page, account } = await signedUp({ width: 390, height: 844 })
    await account.open()
    expect(await page.getByRole('tablist').getAttribute('aria-orientation')).toBe('horizontal')
    await account.tab('Account').focus()
    await page.keyboard.press('ArrowRight')
    await page.waitForURL(/\/account\?tab=consumption$/)
  })
})

describe('Google sign-in', () => {
  it('signs a new Google user in, and their settings have no Edit button', async () => {
    const email = uniqueEmail('googler')
    google.setNextUser({ sub: `sub-${Date.now()}`, email, email_verified: true, name: 'Googler' })
    const { page, unexpectedErrors } = await browser.newPage()
    const chat = new ChatPage(page, server.url)
    await chat.open()
    await chat.openSignIn()
    await continueWithGoogle(chat)
    await chat.userMenuButton().waitFor()
    // auth=google is stripped once back on /chat.
    await page.waitForURL(new RegExp(`^${server.url}/chat(/[0-9a-f-]{36})?$`))

    const account = new AccountPage(page, server.url)
    await chat.openUserMenuItem('Account')
    await account.profileEmail().waitFor()
    expect(await account.profileEmail().textContent()).toBe(email)
    expect(await page.getByText('Linked to Google').isVisible()).toBe(true)
    expect(await account.editEmailButton().count()).toBe(0)
    expect(unexpectedErrors()).toEqual([])
  })

  it('brings the person back to the sign-in dialog with a toast when they deny consent', async () => {
    const { page, unexpectedErrors } = await browser.newPage()
    const chat = new ChatPage(page, server.url)
    await chat.open()
    await chat.openSignIn()
    google.setNextBehaviour('deny')
    await continueWithGoogle(chat)
    await chat.toast('Google sign-in was cancelled').waitFor()
    expect(await chat.toast('Google sign-in failed').isVisible()).toBe(true)
    await chat.dialog().waitFor()
    // The dialog shows only to a visitor: nobody was signed in.
    expect(new URL(page.url()).search).toBe('')
    expect(unexpectedErrors()).toEqual([])
  })

  it('tells a person whose Google e-mail is unverified to use their password', async () => {
    const { page, chat, email } = await signedUp()
    await chat.signOut()
    google.setNextUser({ sub: `sub-unverified-${Date.now()}`, email, email_verified: false })
    await chat.openSignIn()
    await continueWithGoogle(chat)
    await chat.toast('Sign in with your e-mail and password instead').waitFor()
    await chat.fillCredentials('Sign in', email, password)
    await chat.userMenuButton().waitFor()
    // /chat, then the shown thread's own address once the threads load: a race to read.
    expect(new URL(page.url()).pathname).toMatch(/^\/chat(\/[0-9a-f-]{36})?$/)
  })

  it('keeps the pending draft through the Google round trip and sends it', async () => {
    google.setNextUser({
      sub: `sub-draft-${Date.now()}`,
      email: uniqueEmail('draft'),
      email_verified: true,
    })
    const { page, unexpectedErrors } = await browser.newPage()
    const chat = new ChatPage(page, server.url)
    await chat.open()
    await chat.send('Plant a tree for me')
    await chat.dialog().waitFor()
    await continueWithGoogle(chat)
    await chat.waitForReply('Plant a tree for me', 'Echo: Plant a tree for me')
    expect(new URL(page.url()).search).toBe('')
    expect(await page.evaluate(() => sessionStorage.getItem('pending-chat-message'))).toBeNull()
    expect(unexpectedErrors()).toEqual([])
  })
})

describe('delete account', () => {
  it('deletes the account and its data after confirmation, silently signs out, and the sign-in then fails', async () => {
    const { page, chat, account, email, unexpectedErrors } = await signedUp()
    await chat.send('Remember this for me')
    await chat.waitForReply('Remember this for me')

    await account.open()
    await account.openDeleteDialog()
    const dialog = account.deleteDialog()
    for (const item of [
      'threads and messages',
      'file you uploaded',
      'CO2 saved and trees planted',
      'cancelled',
    ]) {
      expect(await dialog.getByText(item, { exact: false }).isVisible(), item).toBe(true)
    }
    // Cancel keeps everything.
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await account.openDeleteDialog()
    await account.confirmDelete()

    await page.waitForURL(`${server.url}/chat`)
    await chat.signInButton().waitFor()
    // Logged out without a toast (spec section 4).
    expect(await page.getByText('Successfully logged out').count()).toBe(0)

    await chat.openSignIn()
    await chat.fillCredentials('Sign in', email, password)
    await chat.toast('Invalid e-mail or password').waitFor()
    expect(await chat.toast('Login failed').isVisible()).toBe(true)
    expect(unexpectedErrors([/status of 401/])).toEqual([])

    // The data is gone: the same address signs up as a brand-new, empty account.
    const again = await fetch(`${server.url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    })
    expect(again.status).toBe(201)
    const cookie = again.headers.getSetCookie()[0]?.split(';')[0] ?? ''
    const threads = await (await fetch(`${server.url}/api/threads`, { headers: { cookie } })).json()
    expect(threads.map((t: { title: string }) => t.title)).toEqual(['Default'])
    const messages = await (await fetch(`${server.url}/api/messages`, { headers: { cookie } })).json()
    expect(messages).toEqual({ items: [], nextCursor: null })
  })
})
