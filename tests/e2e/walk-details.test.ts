// What a person notices walking through the app, at a desktop's 1440x900 and a phone's 390x844:
// line breaks kept in their own messages, tooltips that close when the pointer leaves, toasts
// that cover no control, the Pro title on one line, /account as quick as /chat, replies dated
// and named, the consumption chart's story, and the waitlist box's hint.
import path from 'node:path'
import type { Locator, Page, Route } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { AccountPage } from '../pages/account-page.ts'
import { LandingPage } from '../pages/landing-page.ts'
import { chatHarnessForFile } from './support/chat-harness.ts'
import { chatgptConversation, importConversations } from './support/chatgpt-export.ts'

const h = chatHarnessForFile({ emailPrefix: 'walk' })

const shots = path.resolve(import.meta.dirname, '../../.tmp/e2e-screenshots')
const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const

type Box = { x: number; y: number; width: number; height: number }
async function box(l: Locator): Promise<Box> {
  const b = await l.boundingBox()
  if (!b) throw new Error('not laid out')
  return b
}
/** The box once it has stopped moving (a toast slides in). */
async function settledBox(l: Locator): Promise<Box> {
  let current = await box(l)
  await expect
    .poll(
      async () => {
        const last = JSON.stringify(current)
        current = await box(l)
        return JSON.stringify(current) === last
      },
      { interval: 200 },
    )
    .toBe(true)
  return current
}
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

/** The buttons, links, fields and tabs outside the toasts that lie under the given box. */
function controlsUnder(page: Page, over: Box): Promise<string[]> {
  return page.evaluate((tb) => {
    const controls = document.querySelectorAll<HTMLElement>(
      'button, a[href], input:not([type=hidden]), textarea, select, [role=button], [role=tab], [role=separator], [tabindex="0"]',
    )
    const hit: string[] = []
    for (const el of controls) {
      if (el.closest('[role=region]')) continue
      const r = el.getBoundingClientRect()
      if (r.width === 0 || r.height === 0) continue
      if (getComputedStyle(el).visibility === 'hidden') continue
      if (r.x < tb.x + tb.width && tb.x < r.right && r.y < tb.y + tb.height && tb.y < r.bottom)
        hit.push(el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30) ?? el.tagName)
    }
    return hit
  }, over)
}

/** The thread ids of the page's signed-in person, newest first, with their titles. */
function threadsOf(page: Page): Promise<{ id: string; title: string }[]> {
  return page.evaluate(async () => {
    const res = await fetch('/api/threads?limit=50')
    return ((await res.json()) as { items: { id: string; title: string }[] }).items
  })
}

describe.each(SIZES)('on a $name ($width x $height)', ({ name, width, height }) => {
  const viewport = { width, height }

  it('keeps the line breaks of a message typed with Shift+Enter: chat, share page, Markdown export', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport })
    await chat.composer().fill('line one')
    await chat.composer().press('Shift+Enter')
    await chat.composer().pressSequentially('line two')
    await chat.composer().press('Enter')
    await chat.waitForReply('line one')
    const bubble = chat.exchange('line one').getByTestId('user-message')
    expect(await bubble.innerText()).toBe('line one\nline two')
    await page.screenshot({ path: path.join(shots, `walk-breaks-${name}.png`) })

    const thread = (await threadsOf(page)).find((t) => t.title === 'Default')
    if (!thread) throw new Error('no Default thread')
    const share = await page.evaluate(async (id) => {
      const res = await fetch(`/api/threads/${id}/share`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      })
      return (await res.json()) as { url: string }
    }, thread.id)
    const markdown = await page.evaluate(async (id) => {
      const res = await fetch(`/api/threads/${id}/export?format=markdown`)
      return res.text()
    }, thread.id)
    // A hard break (two spaces before the newline): any Markdown reader keeps the two lines.
    expect(markdown).toContain('line one  \nline two')

    await page.goto(share.url)
    const shared = page.getByTestId('user-message').filter({ hasText: 'line one' })
    await shared.waitFor()
    expect(await shared.innerText()).toBe('line one\nline two')
    await page.screenshot({ path: path.join(shots, `walk-breaks-share-${name}.png`) })
    expect(unexpectedErrors()).toEqual([])
  })

  it('closes a tooltip when the pointer leaves across the tooltip body, at once or after a pause', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport })
    await chat.send('Something to answer')
    await chat.waitForReply('Something to answer')
    const tips = [
      { trigger: page.getByTestId('co2-badge'), text: 'compared with standard AI models' },
      {
        trigger: chat
          .replyFooter('Something to answer')
          .getByRole('button', { name: 'Start new thread from this message' }),
        text: 'Start new thread from this message',
      },
    ]
    for (const { trigger, text } of tips) {
      for (const leave of ['at once', 'after a pause'] as const) {
        const tooltip = page.getByRole('tooltip').filter({ hasText: text })
        const b = await box(trigger)
        await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 2 })
        await tooltip.waitFor()
        // The body on screen, not the hidden copy Radix keeps for screen readers.
        const body = page.locator('[data-slot="tooltip-content"]').filter({ hasText: text })
        const t = await box(body)
        if (leave === 'after a pause') await page.waitForTimeout(600)
        await page.mouse.move(t.x + t.width / 2, t.y + t.height / 2, { steps: 3 })
        // Out through the side of the body away from the trigger, then the pointer rests.
        const below = t.y > b.y
        await page.mouse.move(t.x + t.width / 2, below ? t.y + t.height + 30 : t.y - 30, { steps: 2 })
        await tooltip.waitFor({ state: 'detached', timeout: 3000 })
        // The next tooltip opens after its full delay, not the skip delay of this one.
        await page.waitForTimeout(400)
      }
    }
    await page.getByTestId('co2-badge').hover()
    await page.getByRole('tooltip').filter({ hasText: 'compared with standard AI models' }).waitFor()
    await page.screenshot({ path: path.join(shots, `walk-tooltip-${name}.png`) })
    expect(unexpectedErrors()).toEqual([])
  })

  it('shows a toast where it covers no control', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport })
    await chat.send('A message before the toast')
    await chat.waitForReply('A message before the toast')
    await chat.openUserMenuItem('Clear History')
    await page.getByRole('alertdialog').getByRole('button', { name: 'Clear History' }).click()
    const toast = chat.toast('Chat history cleared')
    await toast.waitFor()
    // Settled: its slide-in is over.
    const t = await settledBox(toast)
    await page.screenshot({ path: path.join(shots, `walk-toast-${name}.png`) })
    const covered = await controlsUnder(page, t)
    expect(covered).toEqual([])
    expect(unexpectedErrors()).toEqual([])
  })

  it("keeps 'Loris Pro' on one line in the header, down to 360 px wide", async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport })
    const future = new Date(Date.now() + 30 * 86_400_000).toISOString()
    await page.route('**/api/session', async (route: Route) => {
      const res = await route.fetch()
      const { user } = await res.json()
      await route.fulfill({
        response: res,
        json: {
          user: {
            ...user,
            isPremium: true,
            subscription_end_date: future,
            co2Saved: 1234.5,
            treesPlanted: 128,
          },
        },
      })
    })
    // Badges as a long-time user's: more digits than a new account's '0 g' and '0 trees'.
    await page.route('**/api/metrics/co2', (route: Route) => route.fulfill({ json: 1234.5 }))
    for (const w of name === 'phone' ? [width, 360] : [width]) {
      await page.setViewportSize({ width: w, height })
      await page.reload()
      const title = chat.title().filter({ hasText: 'Loris Pro' })
      await title.waitFor()
      const lines = await title.evaluate((el) => {
        const range = document.createRange()
        range.selectNodeContents(el)
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size
      })
      expect(lines, `at ${w} px`).toBe(1)
      // Nothing in the header overflows the screen or sits on the title.
      const header = page.locator('header').first()
      const titleBox = await box(title)
      for (const control of await header.locator('button, a').all()) {
        const c = await box(control)
        expect(c.x + c.width, `at ${w} px`).toBeLessThanOrEqual(w + 0.5)
        if ((await control.textContent())?.includes('Loris Pro')) continue
        expect(overlaps(c, titleBox), `at ${w} px`).toBe(false)
      }
      await page.screenshot({ path: path.join(shots, `walk-pro-title-${name}-${w}.png`) })
    }
    expect(unexpectedErrors()).toEqual([])
  })

  it("dates a reply older than today, and names an imported reply's model or nothing", async () => {
    const { page, unexpectedErrors } = await h.signedInChat({ viewport })
    const twoDaysAgo = Math.floor(Date.now() / 1000) - 2 * 86_400
    const named = chatgptConversation('Old named', twoDaysAgo)
    const answer = named.mapping.a.message as unknown as Record<string, unknown>
    answer.metadata = { model_slug: 'gpt-4o' }
    const unnamed = chatgptConversation('Old unnamed', twoDaysAgo)
    await importConversations(page, [named, unnamed])
    const threads = await threadsOf(page)
    const expectedDate = new Date(twoDaysAgo * 1000 + 1000).toLocaleDateString('en-US', {
      month: 'short',
      day: 'numeric',
    })
    for (const [title, model] of [
      ['Old named', 'GPT-4o'],
      ['Old unnamed', null],
    ] as const) {
      const thread = threads.find((t) => t.title === title)
      if (!thread) throw new Error(`no thread ${title}`)
      await page.goto(`${h.server.url}/chat/${thread.id}`)
      const footer = page.getByTestId('reply-footer')
      await footer.waitFor()
      expect(await footer.locator('time').innerText()).toContain(expectedDate)
      const meta = footer.getByTestId('reply-meta')
      const text = (await meta.innerText()).replace(/\s+/g, ' ').trim()
      if (model) expect(text.startsWith(`${model} · ${expectedDate}`)).toBe(true)
      else expect(text.startsWith(expectedDate)).toBe(true)
      await page.screenshot({
        path: path.join(shots, `walk-dated-${name}-${model ? 'named' : 'unnamed'}.png`),
      })
    }
    expect(unexpectedErrors()).toEqual([])
  })

  it('tells the Consumption story: saved as the headline, emitted beside it, trees and what they absorb', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport })
    // The eco model answers: far less than the standard model, so something is saved.
    await chat.chooseMode('Loris eco')
    for (const text of ['First counted question', 'Second counted question']) {
      await chat.send(text)
      await chat.waitForReply(text)
    }
    const account = new AccountPage(page, h.server.url)
    await account.open('consumption')
    const chart = page.getByTestId('co2-history')
    const headline = chart.getByTestId('history-saved')
    await headline.waitFor()
    expect(await headline.innerText()).toMatch(/^[\d.]+ g\s+CO2 saved against a standard model$/)
    expect(await headline.innerText()).not.toMatch(/^0 g/)
    expect(await chart.getByTestId('history-emitted').innerText()).toMatch(/emitted/i)
    const trees = chart.getByTestId('history-trees')
    await trees.filter({ hasText: /^1 tree planted/ }).waitFor()
    expect(await trees.innerText()).toMatch(/absorbs? about [\d.]+ kg of CO2/)
    const source = chart.getByRole('link', { name: /EPA/ })
    expect(await source.getAttribute('href')).toMatch(/^https:\/\/www\.epa\.gov\//)
    // The headline comes first and is the larger figure.
    const savedBox = await box(headline)
    const emittedBox = await box(chart.getByTestId('history-emitted'))
    expect(
      savedBox.y <= emittedBox.y + 1 && (savedBox.y < emittedBox.y - 1 || savedBox.x < emittedBox.x),
    ).toBe(true)
    await chart.scrollIntoViewIfNeeded()
    await page.screenshot({ path: path.join(shots, `walk-consumption-${name}.png`) })
    expect(unexpectedErrors()).toEqual([])
  })

  it('asks the chunks and data of /account at once, as the chat does', async () => {
    const { page } = await h.signedInChat({ viewport })
    const html = await page.evaluate(async () => (await fetch('/account')).text())
    expect(html).toContain(
      '<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/session">',
    )
    expect(html).toMatch(/<link rel="modulepreload"[^>]+account-page[^>]*>/)
    // Who is signed in is held back: the settings code is already on its way meanwhile.
    const asked: string[] = []
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    page.on('request', (r) => asked.push(new URL(r.url()).pathname))
    await page.route('**/api/session', async (route) => {
      await held
      await route.continue()
    })
    await page.goto(`${h.server.url}/account`, { waitUntil: 'commit' })
    await expect
      .poll(() => asked.some((p) => /\/assets\/account-page-[\w-]+\.js$/.test(p)), { timeout: 10_000 })
      .toBe(true)
    release()
    await page.getByTestId('account-type').waitFor()
    await page.screenshot({ path: path.join(shots, `walk-account-${name}.png`) })
  })

  it("shows the waitlist box's hint: a placeholder and the Join button, disabled until an '@'", async () => {
    const tab = await h.browser.newPage({ viewport })
    const landing = new LandingPage(tab.page, h.server.url)
    await landing.open()
    for (const layout of ['hero', 'compact'] as const) {
      if (layout === 'compact') {
        await landing.scrollHeroOut(0.9)
        await landing.waitForLayout('compact')
      }
      expect(await landing.emailInput().getAttribute('placeholder')).toBe('you@example.com')
      await landing.emailInput().fill('')
      expect(await landing.joinButton().isVisible()).toBe(true)
      expect(await landing.joinButton().isDisabled()).toBe(true)
      await tab.page.screenshot({ path: path.join(shots, `walk-waitlist-${name}-${layout}.png`) })
      await landing.emailInput().fill('ada@')
      expect(await landing.joinButton().isEnabled()).toBe(true)
    }
    // Enter without an '@': the toast says why, over no control (the header's links included).
    await landing.scrollHeroOut(0)
    await landing.waitForLayout('hero')
    await landing.emailInput().fill('ada')
    await landing.emailInput().press('Enter')
    const toast = landing.toast('Invalid email')
    await toast.waitFor()
    expect(await controlsUnder(tab.page, await settledBox(toast))).toEqual([])
    await tab.page.screenshot({ path: path.join(shots, `walk-waitlist-toast-${name}.png`) })
    expect(tab.unexpectedErrors()).toEqual([])
  })
})
