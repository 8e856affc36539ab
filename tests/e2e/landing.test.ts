import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LandingPage } from '../pages/landing-page.ts'
import { type AppServer, startAppServer } from './support/app-server.ts'
import { launchBrowser, type TestBrowser } from './support/browser.ts'

let server: AppServer
let browser: TestBrowser
const shots = path.resolve(import.meta.dirname, '../../.tmp/e2e-screenshots')

beforeAll(async () => {
  server = await startAppServer()
  browser = await launchBrowser()
  mkdirSync(shots, { recursive: true })
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

async function openLanding(viewport?: { width: number; height: number }) {
  const tp = await browser.newPage(viewport ? { viewport } : {})
  const landing = new LandingPage(tp.page, server.url)
  await landing.open()
  return { ...tp, landing }
}

describe('landing page', () => {
  it('loads without the chat code or a user lookup, and without console errors', async () => {
    const tp = await browser.newPage()
    const requested: string[] = []
    tp.page.on('request', (r) => requested.push(new URL(r.url()).pathname))
    const landing = new LandingPage(tp.page, server.url)
    await landing.open()
    await tp.page.getByRole('link', { name: 'Start chatting' }).waitFor()
    // Nor the chunks the chat's first load is built into (build/route-chunks.ts).
    expect(requested.filter((p) => /\/assets\/(chat|app)-|page-shell|\/api\/user/.test(p))).toEqual([])
    expect(tp.unexpectedErrors()).toEqual([])
  })

  it('has its own document title, and the next page has its own', async () => {
    const { page } = await openLanding()
    expect(await page.title()).toBe('Loris: AI chat that cares for the planet')
    await page.getByRole('main').getByRole('link', { name: 'How it works' }).click()
    await page.getByRole('heading', { name: 'How Loris works' }).waitFor()
    expect(await page.title()).toBe('How Loris works | Loris')
  })

  it('links to three partners in a new tab without opener or referrer', async () => {
    const { page } = await openLanding()
    const partners = page.locator('#partners a[target="_blank"]')
    expect(await partners.count()).toBe(3)
    for (const link of await partners.all()) {
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer')
      expect(await link.getAttribute('href')).toMatch(/^https:\/\//)
    }
    expect(
      await page.getByText('10 percent of every subscription goes to environmental causes.').isVisible(),
    ).toBe(true)
    expect(await page.locator('a[href="mailto:hello@loris.eco"]').count()).toBe(1)
  })

  it('plays the hero video muted and lets the visitor pause it', async () => {
    const { page, landing } = await openLanding()
    const video = landing.heroVideo()
    await page.waitForFunction(() => {
      const v = document.querySelector('[data-testid="hero-video"]') as HTMLVideoElement
      return !v.paused && v.muted
    })
    await page.getByRole('button', { name: 'Pause background video' }).click()
    expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true)
  })

  it('keeps the hero video still for visitors who prefer reduced motion', async () => {
    const tp = await browser.newPage()
    await tp.page.emulateMedia({ reducedMotion: 'reduce' })
    const landing = new LandingPage(tp.page, server.url)
    await landing.open()
    const video = landing.heroVideo()
    expect(await video.getAttribute('poster')).toBe('/media/hero-poster.webp')
    expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true)
    expect(await tp.page.getByRole('button', { name: 'Pause background video' }).count()).toBe(0)
  })
})

describe('waitlist bar', () => {
  it('restores the draft e-mail after a reload', async () => {
    const { page, landing } = await openLanding()
    await landing.emailInput().fill('draft@exam')
    expect(await landing.draft()).toBe('draft@exam')
    await page.reload()
    await landing.emailInput().waitFor()
    expect(await landing.emailInput().inputValue()).toBe('draft@exam')
  })

  it("enables the submit button only with an '@', and Enter without one shows the Invalid email toast", async () => {
    const { landing, unexpectedErrors } = await openLanding()
    await landing.emailInput().fill('ada.example.com')
    expect(await landing.joinButton().isDisabled()).toBe(true)
    await landing.emailInput().press('Enter')
    // One wait for a toast carrying both texts: a toast lives 5 s, a second read could miss it.
    await landing.toast('Invalid email', 'Please enter a valid email address.').waitFor()
    expect(await landing.thanks().count()).toBe(0)
    await landing.emailInput().fill('ada@example.com')
    expect(await landing.joinButton().isEnabled()).toBe(true)
    expect(unexpectedErrors()).toEqual([])
  })

  it('thanks the visitor after joining and clears the draft', async () => {
    const { page, landing, unexpectedErrors } = await openLanding()
    const email = `joiner-${Date.now()}@example.com`
    await landing.emailInput().fill(email)
    await landing.joinButton().click()
    await landing.thanks().waitFor()
    expect(await landing.thanks().textContent()).toContain(email)
    expect(await landing.emailInput().count()).toBe(0)
    expect(await landing.draft()).toBeNull()
    await page.reload()
    await landing.emailInput().waitFor()
    expect(await landing.emailInput().inputValue()).toBe('')
    expect(unexpectedErrors()).toEqual([])
  })

  it("shows the server's message in an Error toast when joining fails", async () => {
    const { landing } = await openLanding()
    await landing.emailInput().fill('not@valid')
    await landing.emailInput().press('Enter')
    // Titled 'Error', not the client's own 'Invalid email' (the text has an '@').
    await landing.toast('Error', 'Please enter a valid email address').waitFor()
    expect(await landing.toast('Invalid email').count()).toBe(0)
    expect(await landing.thanks().count()).toBe(0)
    expect(await landing.draft()).toBe('not@valid')
  })

  it('switches between the large and the compact layout at half the hero', async () => {
    const { landing } = await openLanding()
    await landing.waitForLayout('hero')
    // 60 percent of the hero still visible: the large layout stays.
    await landing.scrollHeroOut(0.4)
    await landing.settle()
    expect(await landing.bar().getAttribute('data-layout')).toBe('hero')
    // 40 percent visible: below the spec's 50 percent, the compact bar.
    await landing.scrollHeroOut(0.6)
    await landing.waitForLayout('compact')
    await landing.emailInput().fill('still-typing@')
    await landing.scrollHeroOut(0)
    await landing.waitForLayout('hero')
    expect(await landing.emailInput().inputValue()).toBe('still-typing@')
  })

  it.each([
    { width: 320, height: 640 },
    { width: 390, height: 844 },
  ])('fits a $width x $height phone without sideways scrolling', async (viewport) => {
    const { page, landing, unexpectedErrors } = await openLanding(viewport)
    await landing.emailInput().fill('someone@example.com')
    await landing.joinButton().waitFor()
    expect(await landing.horizontalOverflow()).toBeLessThanOrEqual(0)
    await page.screenshot({ path: path.join(shots, `landing-${viewport.width}-top.png`) })
    await landing.scrollHeroOut(0.9)
    await landing.waitForLayout('compact')
    expect(await landing.horizontalOverflow()).toBeLessThanOrEqual(0)
    const bar = await landing.bar().boundingBox()
    expect(bar && bar.x >= 0 && bar.x + bar.width <= viewport.width).toBe(true)
    await page.screenshot({ path: path.join(shots, `landing-${viewport.width}-full.png`), fullPage: true })
    expect(unexpectedErrors()).toEqual([])
  })
})
