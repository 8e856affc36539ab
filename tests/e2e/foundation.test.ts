import { randomUUID } from 'node:crypto'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ChatPage } from '../pages/chat-page.ts'
import { announcements } from '../pages/toasts.ts'
import { type AppServer, startAppServer } from './support/app-server.ts'
import { launchBrowser, type TestBrowser } from './support/browser.ts'
import { reportOnFailure } from './support/failure-report.ts'
import { holdNextRequest } from './support/held-request.ts'

let server: AppServer
let browser: TestBrowser

beforeAll(async () => {
  server = await startAppServer()
  // rebind.example stands for a name its owner pointed at this machine (DNS rebinding).
  browser = await launchBrowser(['--host-resolver-rules=MAP rebind.example 127.0.0.1'])
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** Registers from the page's own origin, as a script on it could; answers the status. */
function registerFrom(page: Page): Promise<number> {
  return page.evaluate(async (email) => {
    const res = await fetch('/api/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct horse battery' }),
    })
    return res.status
  }, `addresses-${randomUUID()}@example.com`)
}

describe('addresses', () => {
  it('works at localhost as at 127.0.0.1, and answers a name rebound to this machine 421', async () => {
    const port = new URL(server.url).port
    // The server's PUBLIC_URL says 127.0.0.1; outside production localhost is the same server.
    const local = await browser.newPage()
    await local.page.goto(`http://localhost:${port}/`)
    await local.page
      .getByRole('link', { name: /start chatting/i })
      .first()
      .waitFor()
    expect(await registerFrom(local.page)).toBe(201)
    expect(local.unexpectedErrors()).toEqual([])

    // A page on another name that resolves here reaches nothing: not the app, not its API.
    const rebound = await browser.newPage()
    const answer = await rebound.page.goto(`http://rebind.example:${port}/`)
    expect(answer?.status()).toBe(421)
    expect(await rebound.page.textContent('body')).toContain('This server answers at')
    expect(await registerFrom(rebound.page)).toBe(421)
  })
})

describe('routes', () => {
  it('shows the 404 screen for an unknown path, answered with status 404', async () => {
    const { page, unexpectedErrors } = await browser.newPage()
    const answer = await page.goto(`${server.url}/no/such/page`)
    // Search engines and link checkers read the status, people the screen.
    expect(answer?.status()).toBe(404)
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor()
    expect(await page.getByText('Did you forget to add the page to the router?').isVisible()).toBe(true)
    // Chromium logs the page's own 404; nothing else may fail.
    expect(unexpectedErrors([/status of 404/])).toEqual([])
    // A route the router knows is a 200, whatever its letters' case.
    expect((await page.goto(`${server.url}/HowItWorks`))?.status()).toBe(200)
  })

  it('matches routes case-insensitively', async () => {
    const { page } = await browser.newPage()
    await page.goto(`${server.url}/HowItWorks`)
    await page.getByRole('heading', { name: 'How Loris works' }).waitFor()
    await page.getByRole('link', { name: 'Back' }).click()
    await page.waitForURL(`${server.url}/`)
  })

  it.each([
    ['/privacy-policy', 'Privacy Policy', 'Back to waitlist', '/'],
    ['/privacy-policy?from=waitlist', 'Privacy Policy', 'Back to waitlist', '/'],
    ['/terms-of-service?from=chat', 'Terms of Service', 'Back to chat', '/chat'],
    ['/terms-of-service?from=anything', 'Terms of Service', 'Back to chat', '/chat'],
  ])('%s has the right back link', async (path, heading, linkText, target) => {
    const { page } = await browser.newPage()
    await page.goto(`${server.url}${path}`)
    await page.getByRole('heading', { name: heading, exact: true }).waitFor()
    expect(await page.getByText('Last updated January 22, 2025').isVisible()).toBe(true)
    await page.getByRole('link', { name: linkText }).click()
    await page.waitForURL(`${server.url}${target}`)
  })

  it('F8 focuses the notifications region on app screens', async () => {
    const { page } = await browser.newPage()
    const chat = new ChatPage(page, server.url)
    await chat.open()
    const region = page.getByRole('region', { name: /Notifications/ })
    await region.waitFor({ state: 'attached' })
    await page.keyboard.press('F8')
    await expect.poll(() => region.evaluate((el) => el.contains(document.activeElement))).toBe(true)
  })

  it('shows the 404 screen for /account to a visitor', async () => {
    const { page } = await browser.newPage()
    await page.goto(`${server.url}/account`)
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor()
  })

  it('serves the landing page at /', async () => {
    const { page, unexpectedErrors } = await browser.newPage()
    await page.goto(`${server.url}/`)
    await page
      .getByRole('link', { name: /start chatting/i })
      .first()
      .waitFor()
    expect(unexpectedErrors()).toEqual([])
  })
})

describe('accounts', () => {
  const password = 'a strong password'
  // A new address for every attempt: a retried test never meets the account its first try made.
  const uniqueEmail = (tag: string) => `${tag}-${randomUUID()}@example.com`
  /** An account made through the API, for tests whose subject is not signing up. */
  async function existingAccount(): Promise<string> {
    const email = uniqueEmail('e2e-existing')
    const res = await fetch(`${server.url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email, password }),
    })
    expect(res.status).toBe(201)
    return email
  }

  it('signs up, lands on /chat signed in, signs out and signs in again', async () => {
    const email = uniqueEmail('e2e')
    const { page, unexpectedErrors, explain } = await browser.newPage()
    // A failure says what the page was doing, and which toasts came and went: a toast is looked
    // for on screen, not by its one-second announcement (tests/pages/toasts.ts).
    reportOnFailure({ explain }, server)
    const chat = new ChatPage(page, server.url)
    await chat.open()
    expect(await chat.signInButton().isVisible()).toBe(true)
    // Each toast is watched from before the action that shows it (ChatPage.watchToast).
    const registered = chat.watchToast('Successfully registered and logged in')
    await chat.signUp(email, password)
    await registered
    // /chat, then the shown thread's own address once the threads load.
    expect(page.url()).toMatch(new RegExp(`^${server.url}/chat(/[0-9a-f-]{36})?$`))

    await chat.openUserMenuItem('Account')
    await page.waitForURL(`${server.url}/account`)
    expect(await page.getByTestId('profile-email').textContent()).toBe(email)
    await page.getByRole('link', { name: 'Back to Chat' }).click()

    const loggedOut = chat.watchToast('Successfully logged out')
    await chat.signOut()
    await loggedOut
    expect(page.url()).toBe(`${server.url}/chat`)

    await chat.signIn(email, password)
    expect(await chat.title().textContent()).toBe('Loris')
    // The session survives a reload (cookie-based).
    await page.reload()
    await chat.userMenuButton().waitFor()
    expect(unexpectedErrors()).toEqual([])
  })

  /**
   * The person comes back to the tab a minute later: who is signed in is no longer fresh (30 s,
   * spec section 9) and is loaded again. `asked` resolves with that load once the server has
   * answered it, for the person as they were before what the test does next.
   */
  async function comeBackLater(page: Page) {
    const load = await holdNextRequest(page, (url) => url.pathname === '/api/session')
    await page.clock.setSystemTime(Date.now() + 60_000)
    await page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')))
    const asked = await load.request
    // The page gives that load up (the change below was made after it was asked).
    const abandoned = page.waitForEvent('requestfailed', { predicate: (r) => r === asked, timeout: 10_000 })
    abandoned.catch(() => undefined)
    return { abandoned, release: () => load.release() }
  }

  it('stays signed out when a load of the user asked before the sign-out lands after it', async () => {
    const { page, unexpectedErrors, explain } = await browser.newPage()
    reportOnFailure({ explain }, server)
    const chat = new ChatPage(page, server.url)
    await chat.open()
    await chat.signIn(await existingAccount(), password)
    const late = await comeBackLater(page)
    try {
      await chat.signOut()
      await late.abandoned
    } finally {
      await late.release()
    }
    // Had the late answer landed, the person would show as signed in again.
    expect(await chat.signInButton().isVisible()).toBe(true)
    expect(await chat.userMenuButton().count()).toBe(0)
    expect(unexpectedErrors()).toEqual([])
  })

  it('stays signed in when a load of the user asked before the sign-in lands after it', async () => {
    const { page, unexpectedErrors, explain } = await browser.newPage()
    reportOnFailure({ explain }, server)
    const chat = new ChatPage(page, server.url)
    await chat.open()
    await chat.signInButton().waitFor()
    const email = await existingAccount()
    const late = await comeBackLater(page)
    try {
      await chat.signIn(email, password)
      await late.abandoned
    } finally {
      await late.release()
    }
    // Had the late answer (a visitor) landed, the sign-in would have seemed not to take.
    expect(await chat.userMenuButton().isVisible()).toBe(true)
    expect(await chat.signInButton().count()).toBe(0)
    expect(unexpectedErrors()).toEqual([])
  })

  it('/account offers a retry, not the 404, when who is signed in could not be checked', async () => {
    const { page, unexpectedErrors, explain } = await browser.newPage()
    reportOnFailure({ explain }, server)
    const chat = new ChatPage(page, server.url)
    await chat.open()
    await chat.signIn(await existingAccount(), password)
    // Back from Stripe's portal to a server that cannot answer for a while (the page asks again
    // once by itself: the HTML's preload, then the route).
    let failing = true
    await page.route(
      (url) => url.pathname === '/api/session',
      (route) =>
        failing
          ? route.fulfill({ status: 503, json: { code: 'unavailable', message: 'Try again' } })
          : route.continue(),
    )
    await page.goto(`${server.url}/account`)
    await page.getByRole('button', { name: 'Retry' }).waitFor()
    expect(await page.getByRole('heading', { name: '404 Page Not Found' }).count()).toBe(0)
    failing = false
    await page.getByRole('button', { name: 'Retry' }).click()
    await page.getByRole('heading', { name: 'Settings' }).waitFor()
    expect(unexpectedErrors([/status of 503/])).toEqual([])
  })

  it('a page whose code is gone (a deploy since the tab opened) reloads once, then offers Reload', async () => {
    const { page, unexpectedErrors, explain } = await browser.newPage()
    reportOnFailure({ explain }, server)
    const chat = new ChatPage(page, server.url)
    await chat.open()
    await chat.signIn(await existingAccount(), password)
    // The settings' chunk of the build this tab started with is gone; a server that answers
    // with its HTML shell makes it load as a script of the wrong type.
    const gone = (url: URL) => /^\/assets\/account-page-[\w-]+\.js$/.test(url.pathname)
    let asked = 0
    await page.route(gone, (route) => {
      asked += 1
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html>' })
    })
    let loads = 0
    page.on('load', () => {
      loads += 1
    })
    const reloaded = page.waitForEvent('load')
    await chat.openUserMenuItem('Account')
    await reloaded
    // Reloaded once for the new version; failing again, it asks rather than reloading for ever.
    // (The reloaded /account names the chunk in its HTML too: it is asked for once more there.)
    await page.getByRole('alert').filter({ hasText: 'Loris was updated.' }).waitFor()
    expect(loads).toBe(1)
    expect(asked).toBeGreaterThanOrEqual(2)
    await page.unroute(gone)
    await page.getByRole('button', { name: 'Reload' }).click()
    await page.getByRole('heading', { name: 'Settings' }).waitFor()
    expect(unexpectedErrors([/MIME type/, /dynamically imported module/])).toEqual([])
  })

  it('shows the Login failed toast with the server message for a wrong password', async () => {
    const email = await existingAccount()
    const { page } = await browser.newPage()
    const chat = new ChatPage(page, server.url)
    await chat.open()
    await chat.openSignIn()
    await chat.fillCredentials('Sign in', email, 'not the password')
    await chat.toast('Invalid e-mail or password').waitFor()
    expect(await chat.toast('Login failed').isVisible()).toBe(true)
    expect(await chat.dialog().isVisible()).toBe(true)
    // Read out too, not only shown: Radix's announcement, which gets its text two frames after the
    // toast shows and is removed one second after it. Checked here, on a page with nothing else to
    // do: after the sign-up, the chat's code is loading, and a main thread busy for a second on a
    // loaded machine ran Radix's removal before those frames (seen: the toast shown, no text read).
    await expect
      .poll(() => announcements(page))
      .toContainEqual(expect.stringContaining('Invalid e-mail or password'))
  })

  it('shows Registration failed with the server message for a short password', async () => {
    const { page } = await browser.newPage()
    const chat = new ChatPage(page, server.url)
    await chat.open()
    await chat.openSignIn()
    await chat.fillCredentials('Sign up', uniqueEmail('short'), 'short')
    await chat.toast('Password must be at least 8 characters').waitFor()
    expect(await chat.toast('Registration failed').isVisible()).toBe(true)
  })

  it('user menu links to the privacy policy with from=chat', async () => {
    const email = await existingAccount()
    const { page } = await browser.newPage()
    const chat = new ChatPage(page, server.url)
    await chat.open()
    await chat.signIn(email, password)
    await chat.openUserMenuItem('Privacy Policy')
    await page.waitForURL(`${server.url}/privacy-policy?from=chat`)
    await page.getByRole('link', { name: 'Back to chat' }).waitFor()
  })
})
