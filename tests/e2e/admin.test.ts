// The operator's console in the browser (decision 063): an operator (ADMIN_EMAILS, address
// confirmed through the outbox) finds a person and suspends them, and that person's open tab is
// signed out at its next request; invites a waitlisted address, whose mailed link registers; and
// changes a plan limit, which is stored, shown again and obeyed by the next send. Screenshots at 1440x900 and 390x844 go to
// .tmp/e2e-screenshots for a person to look at.
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { linkIn, waitForMail } from '../helpers/mailbox.ts'
import { AdminPage } from '../pages/admin-page.ts'
import { ChatPage } from '../pages/chat-page.ts'
import { type AiStandIn, startAiStandIn } from '../stand-ins/ai-providers.ts'
import { type AppServer, startAppServer } from './support/app-server.ts'
import { launchBrowser, type TestBrowser, type TestPage } from './support/browser.ts'
import { aiProviderEnv } from './support/chat-harness.ts'

const shots = path.resolve(import.meta.dirname, '../../.tmp/e2e-screenshots')
const password = 'a strong password'
let n = 0
// Unique per attempt, so a retry never meets the account its first run created.
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${++n}@example.com`
// Operators by ADMIN_EMAILS: each test (and each retry) signs up the next one.
const operators = Array.from({ length: 6 }, () => uniqueEmail('operator'))
const nextOperator = () => {
  const email = operators.shift()
  if (!email) throw new Error('no operator address left in ADMIN_EMAILS')
  return email
}

let standIn: AiStandIn
let server: AppServer
let browser: TestBrowser

// The model stand-in gives the usage report replies to show.
beforeAll(async () => {
  mkdirSync(shots, { recursive: true })
  standIn = await startAiStandIn()
  server = await startAppServer({ ...aiProviderEnv(standIn), ADMIN_EMAILS: operators.join(',') })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await standIn?.close()
})

/** Signs up in /chat and confirms the address from the outbox (ADMIN_EMAILS needs it confirmed). */
async function signUpConfirmed(tab: TestPage, email: string): Promise<ChatPage> {
  const chat = new ChatPage(tab.page, server.url)
  await chat.open()
  await chat.signUp(email, password)
  const mail = await waitForMail(server.dataDir, email, /Confirm your e-mail/)
  await tab.page.goto(linkIn(mail, '/verify-email').href)
  await tab.page.getByText('Your e-mail address is confirmed.').waitFor()
  return chat
}

async function joinWaitlist(email: string) {
  const res = await fetch(`${server.url}/api/waitlist`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email }),
  })
  expect(res.status).toBe(200)
}

describe('who may open /admin', () => {
  it('asks a visitor to sign in, and tells a member the page is for operators', async () => {
    const { page, unexpectedErrors } = await browser.newPage()
    await page.goto(`${server.url}/admin`)
    await page.getByRole('heading', { name: 'Sign in to open the console' }).waitFor()
    await page.getByRole('button', { name: 'Sign in' }).click()
    const chat = new ChatPage(page, server.url)
    await chat.fillCredentials('Sign up', uniqueEmail('member'), password)
    await page.getByRole('heading', { name: 'This page is for operators' }).waitFor()
    expect(await page.title()).toBe("Operator's console | Loris")
    // No menu link for a member, and a way back from here.
    await page.getByRole('link', { name: 'Go to the chat' }).click()
    await chat.userMenuButton().click()
    await page.getByRole('menuitem', { name: 'Account' }).waitFor()
    expect(await page.getByRole('menuitem', { name: "Operator's console" }).count()).toBe(0)
    expect(unexpectedErrors()).toEqual([])
  })
})

describe('the operator', () => {
  it('suspends a person, invites a waitlisted address and changes a plan limit', async () => {
    const operatorEmail = nextOperator()
    const op = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    const opChat = await signUpConfirmed(op, operatorEmail)

    // The person to suspend, signed in on their own browser, with the chat open.
    const personEmail = uniqueEmail('person')
    const them = await browser.newPage()
    const theirChat = new ChatPage(them.page, server.url)
    await theirChat.open()
    await theirChat.signUp(personEmail, password)
    await theirChat.send('Hello from the person')
    await theirChat.waitForReply('Hello from the person')

    // The console is in the operator's account menu.
    await opChat.open()
    await opChat.openUserMenuItem("Operator's console")
    const admin = new AdminPage(op.page, server.url)
    await admin.heading().waitFor()
    const card = await admin.findPerson(personEmail)
    expect(await card.textContent()).toContain('Threads')
    await op.page.screenshot({ path: path.join(shots, 'admin-people-1440.png'), fullPage: true })

    await card.getByRole('button', { name: 'Suspend' }).click()
    await admin.toast(`${personEmail} is suspended and signed out everywhere`).waitFor()
    await card.getByText('Suspended', { exact: true }).waitFor()

    // Their open tab: the next request finds the session gone and the page turns to a visitor's.
    await theirChat.send('Still there?')
    await theirChat.signInButton().waitFor()
    await theirChat.openSignIn()
    await theirChat.fillCredentials('Sign in', personEmail, password)
    await theirChat.toast(/This account is suspended, so it cannot sign in/).waitFor()
    expect(them.unexpectedErrors([/status of 401/, /status of 403/])).toEqual([])

    // Restoring lets them in again.
    await card.getByRole('button', { name: 'Restore' }).click()
    await admin.toast(`${personEmail} can sign in again`).waitFor()
    await theirChat.fillCredentials('Sign in', personEmail, password)
    await theirChat.userMenuButton().waitFor()

    // Waitlist: an address joined from the home page gets an invitation; its link registers.
    const waiting = uniqueEmail('waiting')
    await joinWaitlist(waiting)
    const waitlist = await admin.showTab('Waitlist')
    await waitlist.getByRole('button', { name: `Invite ${waiting}` }).click()
    await admin.toast(`${waiting} was e-mailed a sign-up link`).waitFor()
    await waitlist
      .getByRole('listitem')
      .filter({ hasText: waiting })
      .getByText(/invited \d+ \w+ \d{4}/)
      .waitFor()
    await op.page.screenshot({ path: path.join(shots, 'admin-waitlist-1440.png'), fullPage: true })
    const mail = await waitForMail(server.dataDir, waiting, /invit/i)
    const link = mail.text.match(/https?:\/\/\S+\/auth\?\S+/)?.[0]
    if (!link) throw new Error(`no invitation link in:\n${mail.text}`)
    expect(new URL(link).searchParams.get('email')).toBe(waiting)

    const invited = await browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true })
    await invited.page.goto(link)
    await invited.page.getByRole('heading', { name: 'You are invited to Loris' }).waitFor()
    const signUp = invited.page.getByRole('tabpanel', { name: 'Sign up' })
    expect(await signUp.getByLabel('Email').inputValue()).toBe(waiting)
    await invited.page.screenshot({ path: path.join(shots, 'admin-invite-link-390.png') })
    await signUp.getByLabel('Password').fill(password)
    await signUp.getByRole('button', { name: 'Create account' }).click()
    const invitedChat = new ChatPage(invited.page, server.url)
    await invitedChat.userMenuButton().waitFor()
    expect(new URL(invited.page.url()).pathname).toMatch(/^\/chat(\/|$)/)
    // The invitation proved the address: no confirmation banner.
    expect(await invited.page.getByRole('region', { name: 'Confirm your e-mail address' }).count()).toBe(0)
    expect(invited.unexpectedErrors()).toEqual([])

    // The link is single-use.
    const reused = await fetch(`${server.url}/api/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: waiting, password, invite: new URL(link).searchParams.get('invite') }),
    })
    expect(reused.status).toBeGreaterThanOrEqual(400)

    // Plan limits: a wrong value is refused on the spot, a right one is stored and shown again.
    await admin.showTab('Plan limits')
    const sends = admin.limitField('Free plan', 'Sends per minute')
    // A value other than the one stored (a retry finds the first attempt's).
    const next = (await sends.inputValue()) === '7' ? '8' : '7'
    await sends.fill('0')
    await admin.panel('Plan limits').getByRole('button', { name: 'Save limits' }).click()
    await admin.panel('Plan limits').getByText('Sends per minute must be at least 1').waitFor()
    expect(await sends.getAttribute('aria-invalid')).toBe('true')
    expect(await sends.evaluate((el) => el === document.activeElement)).toBe(true)
    await sends.fill(next)
    await admin.panel('Plan limits').getByRole('button', { name: 'Save limits' }).click()
    await admin.toast('Plan limits saved').waitFor()
    await op.page.screenshot({ path: path.join(shots, 'admin-limits-1440.png'), fullPage: true })
    await admin.open('limits')
    expect(await admin.limitField('Free plan', 'Sends per minute').inputValue()).toBe(next)
    const stored = await op.page.request.get(`${server.url}/api/admin/limits`)
    expect(((await stored.json()) as { free: { sendsPerMinute: number } }).free.sendsPerMinute).toBe(
      Number(next),
    )

    // Usage and impact: totals, the chart and its table, here by model.
    const usage = await admin.showTab('Usage and impact')
    await usage.getByText('Emitted this month (UTC)').waitFor()
    await usage.getByLabel('Group by').selectOption('model')
    await usage.getByRole('button', { name: 'Show' }).click()
    const figures = usage.getByRole('region', { name: 'Usage figures' })
    await figures.getByRole('columnheader', { name: 'Model' }).waitFor()
    expect(await figures.getByRole('row').count()).toBeGreaterThanOrEqual(2)
    await usage.getByTestId('usage-chart').locator('.recharts-bar-rectangle').first().waitFor()
    const replies = usage.getByRole('definition').first()
    expect(Number(await replies.textContent())).toBeGreaterThanOrEqual(1)
    await op.page.screenshot({ path: path.join(shots, 'admin-usage-1440.png'), fullPage: true })

    // The audit log names each action, newest first.
    const audit = await admin.showTab('Audit log')
    const entries = audit.getByRole('list', { name: 'Operator actions, newest first' }).locator(':scope > li')
    await entries.first().waitFor()
    const texts = await entries.allTextContents()
    expect(texts[0]).toContain('Changed plan limits')
    expect(texts[0]).toMatch(new RegExp(`Free: sends per minute \\d+ → ${next}`))
    expect(texts.some((t) => t.includes(`Invited ${waiting}`))).toBe(true)
    expect(texts.some((t) => t.includes(`Suspended ${personEmail}`))).toBe(true)
    expect(texts.every((t) => t.includes(`by ${operatorEmail}`))).toBe(true)
    const csv = await op.page.request.get(`${server.url}/api/admin/audit?format=csv`)
    expect(await csv.text()).toContain(`suspend,${personEmail}`)
    await op.page.screenshot({ path: path.join(shots, 'admin-audit-1440.png'), fullPage: true })

    // The next send obeys a changed limit: characters per 30 days lowered below what the person used.
    await admin.showTab('Plan limits')
    const chars = admin.limitField('Free plan', 'Characters per 30 days')
    const before = await chars.inputValue()
    await chars.fill('10')
    await admin.panel('Plan limits').getByRole('button', { name: 'Save limits' }).click()
    await admin.toast('Plan limits saved').waitFor()
    const refused = theirChat.watchToast(/Free usage limit exceeded; resets on \d{4}-\d{2}-\d{2}/)
    await theirChat.send('Is there room for one more?')
    await refused
    await chars.fill(before)
    await admin.panel('Plan limits').getByRole('button', { name: 'Save limits' }).click()
    await admin.toast('Plan limits saved').waitFor()
    expect(op.unexpectedErrors()).toEqual([])
  })

  it('fits a phone: every tab at 390x844 without sideways scrolling', async () => {
    const op = await browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true })
    await signUpConfirmed(op, nextOperator())
    const admin = new AdminPage(op.page, server.url)
    await admin.open()
    for (const [tab, file] of [
      ['People', 'people'],
      ['Waitlist', 'waitlist'],
      ['Usage and impact', 'usage'],
      ['Plan limits', 'limits'],
      ['Audit log', 'audit'],
    ] as const) {
      const panel = await admin.showTab(tab)
      await panel.locator('h2').waitFor()
      await panel.getByRole('status', { name: /Loading/ }).waitFor({ state: 'detached' })
      await op.page.screenshot({ path: path.join(shots, `admin-${file}-390.png`), fullPage: true })
      expect(await op.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    }
    expect(op.unexpectedErrors()).toEqual([])
  })
})
