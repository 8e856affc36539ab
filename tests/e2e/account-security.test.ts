// Account security in the browser (decision 010): the confirmation banner and link (read from the built
// server's outbox, since no SMTP is configured), and forgot password -> reset -> sign in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitFor } from '../helpers/chat.ts'
import { linkIn, waitForMail } from '../helpers/mailbox.ts'
import { ChatPage } from '../pages/chat-page.ts'
import { password, uniqueEmail } from './support/accounts.ts'
import { type AppServer, startAppServer } from './support/app-server.ts'
import { launchBrowser, type TestBrowser } from './support/browser.ts'

let server: AppServer
let browser: TestBrowser

beforeAll(async () => {
  server = await startAppServer()
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const banner = (chat: ChatPage) => chat.page.getByRole('region', { name: 'Confirm your e-mail address' })

describe('e-mail confirmation', () => {
  it('shows a quiet banner after sign-up, resends, and the mailed link confirms the address', async () => {
    const { page, unexpectedErrors } = await browser.newPage()
    const chat = new ChatPage(page, server.url)
    const email = uniqueEmail('confirm')
    await chat.open()
    await chat.signUp(email, password)
    await banner(chat).waitFor()
    expect(await banner(chat).textContent()).toContain(email)

    await waitForMail(server.dataDir, email, /Confirm your e-mail/)
    await banner(chat).getByRole('button', { name: 'Resend link' }).click()
    await banner(chat).getByRole('button', { name: 'Link sent' }).waitFor()
    // The newest link is the one that works; the log names the file it was written to.
    const second = await waitForMail(server.dataDir, email, /Confirm your e-mail/, { after: 1 })
    // The log is written at least once a second.
    const file = second.file
    expect(file).toBeTruthy()
    await waitFor(async () => server.logs.join('').includes(String(file)))

    await page.goto(linkIn(second, '/verify-email').href)
    await page.getByText('Your e-mail address is confirmed.').waitFor()
    await page.getByRole('link', { name: 'Go to the chat' }).click()
    await chat.userMenuButton().waitFor()
    expect(await banner(chat).count()).toBe(0)
    expect(unexpectedErrors()).toEqual([])
  })

  it('a link resent for one person does not show as sent for the next one on the page', async () => {
    const { page, unexpectedErrors } = await browser.newPage()
    const chat = new ChatPage(page, server.url)
    await chat.open()
    await chat.signUp(uniqueEmail('resend-a'), password)
    await banner(chat).getByRole('button', { name: 'Resend link' }).click()
    await banner(chat).getByRole('button', { name: 'Link sent' }).waitFor()
    await chat.signOut()

    const emailB = uniqueEmail('resend-b')
    await chat.signUp(emailB, password)
    await banner(chat).getByText(emailB).waitFor()
    // B has asked for nothing yet: theirs is still to send.
    expect(await banner(chat).getByRole('button', { name: 'Resend link' }).isEnabled()).toBe(true)
    expect(await banner(chat).getByRole('button', { name: 'Link sent' }).count()).toBe(0)
    expect(unexpectedErrors()).toEqual([])
  })

  it('an old or broken link says so', async () => {
    const { page, unexpectedErrors } = await browser.newPage()
    await page.goto(`${server.url}/verify-email?token=${'x'.repeat(43)}`)
    await page
      .getByRole('alert')
      .filter({ hasText: 'This link is invalid, has expired or was already used' })
      .waitFor()
    expect(unexpectedErrors([/status of 400/])).toEqual([])
  })
})

describe('forgot password', () => {
  it('mails a reset link; the new password works, the old one and other sessions do not', async () => {
    const email = uniqueEmail('forgot')
    // Device A: signed up and still signed in.
    const a = await browser.newPage()
    const chatA = new ChatPage(a.page, server.url)
    await chatA.open()
    await chatA.signUp(email, password)

    // Device B: "Forgot password?" in the Sign in tab.
    const b = await browser.newPage()
    const chatB = new ChatPage(b.page, server.url)
    await chatB.open()
    await chatB.openSignIn()
    const dialog = chatB.dialog()
    await dialog.getByRole('tab', { name: 'Sign in' }).click()
    await dialog.getByRole('button', { name: 'Forgot password?' }).click()
    await dialog.getByLabel('Email').fill(email)
    await dialog.getByRole('button', { name: 'Send reset link' }).click()
    await dialog.getByText(`If an account exists for ${email}`).waitFor()

    const mail = await waitForMail(server.dataDir, email, /Reset your Loris password/)
    await b.page.goto(linkIn(mail, '/reset-password').href)
    await b.page.getByLabel('New password').fill('my new password')
    await b.page.getByRole('button', { name: 'Set new password' }).click()
    await b.page.getByText('Your password has been changed').waitFor()
    await b.page.getByRole('button', { name: 'Sign in' }).click()
    await chatB.dialog().waitFor()

    // The old password is refused, the new one signs in.
    await chatB.fillCredentials('Sign in', email, password)
    await chatB.toast('Invalid e-mail or password').waitFor()
    await chatB.fillCredentials('Sign in', email, 'my new password')
    await chatB.userMenuButton().waitFor()

    // Device A's session ended with the reset.
    await a.page.reload()
    await chatA.signInButton().waitFor()
    expect(a.unexpectedErrors()).toEqual([])
    expect(b.unexpectedErrors([/status of 401/])).toEqual([])
  })
})
