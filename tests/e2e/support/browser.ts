// One headless Debian Chromium per test file, driven by playwright-core (which gives each
// launch a fresh temporary profile, i.e. its own --user-data-dir). Every page records
// console errors and failed requests; `expectNoConsoleErrors` fails a test that produced any.
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { recordToasts, toastHistory, toastTexts } from '../../pages/toasts.ts'

// A visitor's GET /api/user answers 401 by design (spec section 7); Chromium logs that.
const VISITOR_401 = /status of 401/

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export interface TestBrowser {
  browser: Browser
  newPage(opts?: {
    viewport?: { width: number; height: number }
    permissions?: string[]
    /** A touch screen (taps), as on a phone. */
    hasTouch?: boolean
  }): Promise<TestPage>
  close(): Promise<void>
}

export interface TestPage {
  page: Page
  context: BrowserContext
  consoleErrors: string[]
  /** Console errors that are not expected by the test (a regex list of allowed ones). */
  unexpectedErrors(allowed?: RegExp[]): string[]
  /**
   * What the page was doing, for a failed test's report: its address, the requests still
   * waiting for an answer, the last answers, the open dialogs and menus, the status lines, the
   * toasts on screen and those shown before, and the console errors.
   */
  explain(): Promise<string>
}

/** The last answers a page received, kept for `explain`. */
const KEPT_ANSWERS = 15

export async function launchBrowser(extraArgs: string[] = []): Promise<TestBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      '--autoplay-policy=no-user-gesture-required',
      ...extraArgs,
    ],
  })
  return {
    browser,
    async newPage(opts = {}) {
      const context = await browser.newContext({
        viewport: opts.viewport ?? { width: 1280, height: 800 },
        hasTouch: opts.hasTouch ?? false,
      })
      if (opts.permissions) await context.grantPermissions(opts.permissions)
      const page = await context.newPage()
      await recordToasts(page)
      const consoleErrors: string[] = []
      page.on('console', (msg) => {
        if (msg.type() === 'error') consoleErrors.push(msg.text())
      })
      page.on('pageerror', (err) => consoleErrors.push(`pageerror: ${err.message}`))
      const started = new Map<object, { what: string; at: number }>()
      const answers: string[] = []
      page.on('request', (req) => started.set(req, { what: `${req.method()} ${req.url()}`, at: Date.now() }))
      page.on('requestfinished', async (req) => {
        const asked = started.get(req)
        started.delete(req)
        const status = (await req.response().catch(() => null))?.status() ?? '?'
        answers.push(
          `${asked?.what ?? req.url()} -> ${status} after ${asked ? Date.now() - asked.at : '?'} ms`,
        )
        answers.splice(0, answers.length - KEPT_ANSWERS)
      })
      page.on('requestfailed', (req) => {
        started.delete(req)
        answers.push(`${req.method()} ${req.url()} failed: ${req.failure()?.errorText ?? '?'}`)
      })
      const explain = async () => {
        const unread = (err: Error) => [`(could not read: ${err.message})`]
        const statuses = await page.getByRole('status').allTextContents().catch(unread)
        const shown = await toastTexts(page).catch(unread)
        const before = await toastHistory(page).catch(unread)
        const overlays = await page
          .locator('[role=dialog], [role=alertdialog], [role=menu], [role=listbox]')
          .evaluateAll((els) =>
            els.map(
              (el) =>
                `${el.getAttribute('role')} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').slice(0, 60)}"`,
            ),
          )
          .catch(unread)
        const now = Date.now()
        return [
          `page: ${page.url()}`,
          `waiting for an answer: ${[...started.values()].map((r) => `${r.what} (${now - r.at} ms)`).join('; ') || 'none'}`,
          // ERR_ABORTED is the page no longer reading: a reply stream closed after its last event,
          // or a fetch replaced by a newer one (a refetch), as well as a real cancellation.
          `last answers:\n  ${answers.join('\n  ') || 'none'}`,
          `open dialogs and menus: ${overlays.join(' | ') || 'none'}`,
          `status lines: ${statuses.join(' | ') || 'none'}`,
          `toasts on screen: ${shown.join(' | ') || 'none'}`,
          `toasts shown since the page opened: ${before.join(' | ') || 'none'}`,
          `console errors: ${consoleErrors.join(' | ') || 'none'}`,
        ].join('\n')
      }
      return {
        explain,
        page,
        context,
        consoleErrors,
        unexpectedErrors: (allowed = []) =>
          consoleErrors.filter((e) => ![VISITOR_401, ...allowed].some((re) => re.test(e))),
      }
    },
    async close() {
      await browser.close()
    },
  }
}
