import type { Page } from 'playwright-core'
import { toastOnScreen } from './toasts.ts'

/** The landing page at /: hero, sections and the fixed waitlist bar. */
export class LandingPage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async open() {
    await this.page.goto(`${this.baseUrl}/`)
    await this.hero().waitFor()
    await this.emailInput().waitFor()
  }

  hero() {
    return this.page.getByTestId('hero')
  }

  heroVideo() {
    return this.page.getByTestId('hero-video')
  }

  bar() {
    return this.page.getByTestId('waitlist-bar')
  }

  /** Waits until the bar shows the given layout ('hero' while the hero is half visible). */
  async waitForLayout(layout: 'hero' | 'compact') {
    await this.page.locator(`[data-testid="waitlist-bar"][data-layout="${layout}"]`).waitFor()
  }

  emailInput() {
    return this.bar().getByLabel('Email address')
  }

  joinButton() {
    return this.bar().getByRole('button', { name: 'Join' })
  }

  thanks() {
    return this.page.getByTestId('waitlist-thanks')
  }

  /** The toast showing every one of `texts` (title and description). */
  toast(...texts: (string | RegExp)[]) {
    return toastOnScreen(this.page, ...texts)
  }

  draft() {
    return this.page.evaluate(() => window.localStorage.getItem('waitlist_email'))
  }

  /** Scrolls so that `fraction` of the hero's height is above the top of the viewport. */
  async scrollHeroOut(fraction: number) {
    await this.page.evaluate((f) => {
      const hero = document.querySelector('[data-testid="hero"]') as HTMLElement
      window.scrollTo({ top: hero.offsetHeight * f, behavior: 'instant' })
    }, fraction)
  }

  /** Resolves after two frames: any IntersectionObserver change from a scroll has been delivered. */
  async settle() {
    await this.page.evaluate(
      () =>
        new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
    )
  }

  /** How far the page is wider than the viewport (0 when nothing overflows sideways). */
  horizontalOverflow() {
    return this.page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth)
  }
}
