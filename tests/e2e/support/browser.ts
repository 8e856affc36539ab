// One headless Debian Chromium per test file, driven by playwright-core (which gives each
// launch a fresh temporary profile, i.e. its own --user-data-dir). Every page records
// console errors and failed requests; `expectNoConsoleErrors` fails a test that produced any.
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'

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
}

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
      const consoleErrors: string[] = []
      page.on('console', (msg) => {
        if (msg.type() === 'error') consoleErrors.push(msg.text())
      })
      page.on('pageerror', (err) => consoleErrors.push(`pageerror: ${err.message}`))
      return {
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
