// Spec lines checked on screen at a desktop (1440x900) and a phone (390x844) size: the thread
// list's empty state, the conversation area's height and the message box's, the three settings
// tabs, the Pro dialog's way in, the /auth page, the panel separator's limits and the
// Consumption tab's models. Layout lines are measured as bounding boxes.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { UpgradeDialog } from '../pages/billing-pages.ts'
import { ConsumptionTab } from '../pages/impact-pages.ts'
import { ThreadList } from '../pages/thread-list.ts'
import { chatHarnessForFile } from './support/chat-harness.ts'

const h = chatHarnessForFile({ emailPrefix: 'spec-layout' })

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const

async function box(page: Page, selector: string) {
  const found = await page.locator(selector).first().boundingBox()
  if (!found) throw new Error(`${selector} is not on screen`)
  return found
}

/** The thread list: the side panel on a desktop, the 'Show Threads' drawer on a phone. */
async function showThreads(page: Page, phone: boolean) {
  const threads = new ThreadList(page)
  if (phone) await page.getByRole('button', { name: 'Show Threads' }).click()
  await threads.thread('Default').waitFor()
  return threads
}

describe.each(SIZES)('on a $name', ({ name, viewport }) => {
  const phone = name === 'phone'

  it("shows 'No conversation history yet' under Default until the first conversation", async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport })
    const threads = await showThreads(page, phone)
    const title = threads.root().getByText('No conversation history yet')
    await title.waitFor()
    await threads.root().getByText('Start a new conversation to see it here').waitFor()
    const defaultRow = await threads.thread('Default').boundingBox()
    const emptyTitle = await title.boundingBox()
    expect(emptyTitle!.y).toBeGreaterThanOrEqual(defaultRow!.y + defaultRow!.height)

    if (phone) await page.keyboard.press('Escape')
    await chat.send('A first question')
    await chat.waitForReply('A first question', 'Echo: A first question')
    await showThreads(page, phone)
    await title.waitFor({ state: 'detached' })
    expect(unexpectedErrors()).toEqual([])
  })

  it('makes the conversation area the viewport minus 140 px, its exchanges clear of the bars over it', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport })
    await chat.send('Measure me')
    await chat.waitForReply('Measure me', 'Echo: Measure me')
    const banner = page.getByRole('region', { name: 'Confirm your e-mail address' })
    await banner.waitFor()

    const area = await box(page, '[data-testid="conversation"]')
    expect(Math.round(area.height)).toBe(viewport.height - 140)
    // It starts under the header and ends within the viewport.
    const header = await box(page, 'header')
    expect(Math.round(area.y)).toBe(Math.round(header.y + header.height))
    // What floats over its edges leaves the exchange readable: under the title, above the composer.
    const title = await box(page, '[data-testid="conversation-title"]')
    const exchange = await chat.exchange('Measure me').boundingBox()
    const composer = await chat.composer().boundingBox()
    expect(exchange!.y).toBeGreaterThanOrEqual(title.y + title.height)
    expect(exchange!.y + exchange!.height).toBeLessThanOrEqual(composer!.y)

    // The e-mail reminder can be dismissed, for the rest of the visit.
    await banner.getByRole('button', { name: 'Dismiss the e-mail reminder' }).click()
    await banner.waitFor({ state: 'detached' })
    expect(Math.round((await box(page, '[data-testid="conversation"]')).height)).toBe(viewport.height - 140)
    await page.reload()
    await chat.exchange('Measure me').waitFor()
    expect(await banner.count()).toBe(0)
    expect(unexpectedErrors()).toEqual([])
  })

  it('gives the message box its fixed 100 px', async () => {
    const { chat, unexpectedErrors } = await h.signedInChat({ viewport })
    const input = await chat.composer().boundingBox()
    expect(Math.round(input!.height)).toBe(100)
    expect(unexpectedErrors()).toEqual([])
  })

  it('has three settings tabs, Shared links a section of Actions', async () => {
    const { page, unexpectedErrors } = await h.signedInChat({ viewport })
    await page.goto(`${h.server.url}/account`)
    const tabs = page.getByRole('tablist').getByRole('tab')
    await tabs.first().waitFor()
    expect(await tabs.allTextContents()).toEqual(['Account', 'Consumption', 'Actions'])
    await page.getByRole('tab', { name: 'Actions' }).click()
    await page.getByRole('region', { name: 'Shared links' }).waitFor()
    await page.getByText('You have not shared any conversation.').waitFor()
    // An address that named the old tab opens the one that holds it now.
    await page.goto(`${h.server.url}/account?tab=shared`)
    await page.getByRole('region', { name: 'Shared links' }).waitFor()
    expect(await page.getByRole('tab', { name: 'Actions' }).getAttribute('aria-selected')).toBe('true')
    expect(unexpectedErrors()).toEqual([])
  })

  it("lets a Pro person open 'Loris Pro Subscription Active'", async () => {
    const { page, unexpectedErrors } = await h.signedInChat({ viewport })
    // A Pro whose subscription runs for another month (Checkout itself has its tests in billing).
    const until = new Date(Date.now() + 30 * 86_400_000).toISOString()
    await page.route(`${h.server.url}/api/session`, async (route) => {
      const res = await route.fetch()
      const { user } = await res.json()
      await route.fulfill({
        response: res,
        json: { user: { ...user, isPremium: true, subscription_end_date: until } },
      })
    })
    await page.goto(`${h.server.url}/account`)
    await page
      .getByTestId('account-type')
      .filter({ hasText: /^Premium \(Active until / })
      .waitFor()
    await page.getByRole('button', { name: 'View subscription' }).click()
    const dialog = new UpgradeDialog(page)
    await dialog.root().getByRole('heading', { name: 'Loris Pro Subscription Active' }).waitFor()
    expect(await dialog.subscribeButton().count()).toBe(0)
    await dialog.root().getByRole('button', { name: 'Close' }).first().click()
    await dialog.root().waitFor({ state: 'detached' })
    expect(unexpectedErrors()).toEqual([])
  })

  it('shows the sign-in as a full page at /auth, which goes to /chat once signed in', async () => {
    const { page, unexpectedErrors } = await h.browser.newPage({ viewport })
    try {
      await page.goto(`${h.server.url}/login`)
      await page.waitForURL(`${h.server.url}/auth?tab=signin`)
      await page.getByRole('heading', { name: 'Welcome to Loris', level: 1 }).waitFor()
      expect(await page.getByRole('tab', { name: 'Sign in' }).getAttribute('aria-selected')).toBe('true')
      expect(await page.getByRole('dialog').count()).toBe(0)

      await page.goto(`${h.server.url}/signup`)
      await page.waitForURL(`${h.server.url}/auth?tab=signup`)
      const panel = page.getByRole('tabpanel', { name: 'Sign up' })
      await panel.waitFor()
      expect(await page.getByRole('tab', { name: 'Sign up' }).getAttribute('aria-selected')).toBe('true')
      await panel.getByLabel('Email').fill(`auth-page-${name}-${Date.now()}@example.com`)
      await panel.getByLabel('Password').fill('a strong password')
      await panel.getByRole('button', { name: 'Create account' }).click()
      await page.waitForURL(`${h.server.url}/chat`)
      await page.getByRole('button', { name: 'User menu' }).waitFor()
      // Signed in, /auth has nothing to ask: it goes on to the chat.
      await page.goto(`${h.server.url}/auth`)
      await page.waitForURL(`${h.server.url}/chat`)
      expect(unexpectedErrors()).toEqual([])
    } finally {
      await page.context().close()
    }
  })

  it('announces the thread panel limits of 15 to 40 percent; hiding the list is its own control', async () => {
    const { page, unexpectedErrors } = await h.signedInChat({ viewport })
    const threads = new ThreadList(page)
    const separator = page.getByRole('separator', { name: 'Resize thread list' })
    if (phone) {
      // Below the large breakpoint the list is a drawer: nothing to resize, a button to open it.
      await page.getByRole('button', { name: 'Show Threads' }).waitFor()
      expect(await separator.count()).toBe(0)
      await showThreads(page, phone)
      expect(await separator.count()).toBe(0)
      expect(unexpectedErrors()).toEqual([])
      return
    }
    await separator.waitFor()
    expect(await separator.getAttribute('aria-valuemin')).toBe('15')
    expect(await separator.getAttribute('aria-valuemax')).toBe('40')
    expect(await separator.getAttribute('aria-valuenow')).toBe('25')
    // The keyboard stops at the minimum: it never collapses the list.
    await separator.focus()
    await page.keyboard.press('Shift+ArrowLeft')
    await page.waitForFunction(
      () => document.querySelector('[role="separator"]')?.getAttribute('aria-valuenow') === '15',
    )
    await page.keyboard.press('Home')
    expect(await separator.getAttribute('aria-valuenow')).toBe('15')
    expect(await threads.root().isVisible()).toBe(true)

    await page.getByRole('button', { name: 'Hide thread list' }).click()
    await threads.root().waitFor({ state: 'detached' })
    expect(await separator.count()).toBe(0)
    // The chat takes the whole width.
    const chatWidth = () => page.getByRole('region', { name: 'Chat' }).evaluate((el) => el.clientWidth)
    await expect.poll(chatWidth).toBeGreaterThan(viewport.width - 10)
    await page.getByRole('button', { name: 'Show thread list' }).click()
    await separator.waitFor()
    // Back at the width it had.
    await page.waitForFunction(
      () => document.querySelector('[role="separator"]')?.getAttribute('aria-valuenow') === '15',
    )
    expect(await separator.getAttribute('aria-valuemin')).toBe('15')

    // Hidden, it stays so through a reload, until the toggle shows it (at the default width).
    await page.getByRole('button', { name: 'Hide thread list' }).click()
    await threads.root().waitFor({ state: 'detached' })
    await page.reload()
    await page.getByRole('button', { name: 'Show thread list' }).waitFor()
    await expect.poll(chatWidth).toBeGreaterThan(viewport.width - 10)
    expect(await separator.count()).toBe(0)
    await page.getByRole('button', { name: 'Show thread list' }).click()
    await separator.waitFor()
    await page.waitForFunction(
      () => document.querySelector('[role="separator"]')?.getAttribute('aria-valuenow') === '25',
    )
    expect(await separator.getAttribute('aria-valuemin')).toBe('15')
    expect(unexpectedErrors()).toEqual([])
  })

  it("names the usage tier's model as the current model, and the model answering in eco mode", async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport })
    await chat.chooseMode('Loris eco')
    const consumption = new ConsumptionTab(page, h.server.url)
    await consumption.open()
    await consumption
      .stat('current-model')
      .filter({ hasText: /^Gemini 2\.5 Pro$/ })
      .waitFor()
    // This harness serves the eco mode from an OpenAI-compatible model called 'loris-eco'.
    await consumption.stat('answering-model').filter({ hasText: 'Loris eco (Loris Eco)' }).waitFor()
    expect(await consumption.stat('chat-engine').textContent()).toBe('Loris eco')
    expect(unexpectedErrors()).toEqual([])
  })
})
