// The chat's smaller behaviours, each as a person meets it: a reply sent with an image stays in view, toasts
// never hide the newest message or the composer, the phone header keeps its units and explains
// itself on a tap, a smaller phone composer, the conversation's title above it, plain thread
// titles, the 404 page's way home, and a Free user back from Checkout is not told they are Pro.
import path from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { ComposerControls } from '../pages/composer.ts'
import { ThreadList } from '../pages/thread-list.ts'
import { chatHarnessForFile } from './support/chat-harness.ts'

const h = chatHarnessForFile({ emailPrefix: 'mends' })

const shots = path.resolve(import.meta.dirname, '../../.tmp/e2e-screenshots')

async function box(l: Locator) {
  const b = await l.boundingBox()
  if (!b) throw new Error('not laid out')
  return b
}
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

/** The part of an element inside the conversation's scrolling box. */
async function visibleIn(page: Page, l: Locator) {
  const el = await box(l)
  const view = await box(page.getByTestId('conversation'))
  return el.y >= view.y - 1 && el.y + el.height <= view.y + view.height + 1
}

describe('mends', () => {
  it('keeps the reply to a message sent with an image in view, above the composer', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport: { width: 1440, height: 900 } })
    const composer = new ComposerControls(page)
    for (const text of ['one', 'two', 'three']) {
      await chat.send(`${text}\n\nwith\n\nseveral\n\nlines`)
      await chat.waitForReply(text)
    }
    await composer.upload('Upload image', 'photo.jpg')
    await composer.chip().waitFor()
    await chat.send('What is in this photo?')
    const reply = await chat.waitForReply('What is in this photo?', 'Echo: What is in this photo?')
    const image = chat.exchange('What is in this photo?').getByRole('img', { name: 'Shared by you' })
    // Asked of the image on screen each time: the one drawn from the sent file (a blob address,
    // let go once the stored exchange replaces it) can be gone before it has loaded, and a handle
    // to it then waited forever (a retry seen under load).
    await expect
      .poll(
        () => image.evaluate((el) => el instanceof HTMLImageElement && el.complete && el.naturalWidth > 0),
        {
          timeout: 30_000,
          interval: 100,
        },
      )
      .toBe(true)
    // The footer is the reply's last line: it must be in view, above the composer floating over
    // the conversation's bottom edge, once everything has settled.
    const footer = chat.replyFooter('What is in this photo?')
    await page.waitForFunction(
      ([f, c]) => {
        if (!(f instanceof HTMLElement) || !(c instanceof HTMLElement)) return false
        return f.getBoundingClientRect().bottom <= c.getBoundingClientRect().top + 1
      },
      [
        await footer.elementHandle(),
        await chat.composer().locator('xpath=ancestor::form').elementHandle(),
      ] as const,
    )
    expect(await visibleIn(page, reply.getByText('Echo: What is in this photo?'))).toBe(true)
    const composerBox = await box(chat.composer())
    expect((await box(footer)).y + (await box(footer)).height).toBeLessThanOrEqual(composerBox.y)
    expect(unexpectedErrors()).toEqual([])
  })

  it('on a phone: toasts leave the newest message and the composer alone; badges keep units', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
    })
    await chat.send('First words on a phone')
    const reply = await chat.waitForReply('First words on a phone')
    // The sign-up toast is still up: it must not cover the sent bubble, the reply or the composer.
    const toast = chat.toast('Successfully registered')
    if (await toast.isVisible()) {
      const t = await box(toast)
      expect(
        overlaps(t, await box(chat.exchange('First words on a phone').getByTestId('user-message'))),
      ).toBe(false)
      expect(overlaps(t, await box(reply))).toBe(false)
      expect(overlaps(t, await box(chat.composer()))).toBe(false)
    }
    await page.screenshot({ path: path.join(shots, 'chat-mends-390.png') })

    // The title of the open conversation sits above it.
    expect(await page.getByTestId('conversation-title').textContent()).toBe('Default')
    expect(await page.getByTestId('conversation-title').isVisible()).toBe(true)

    // The message box keeps the spec's 100 px on a phone, and the conversation area its height.
    expect(Math.round((await box(chat.composer())).height)).toBe(100)
    expect(Math.round((await box(page.getByTestId('conversation'))).height)).toBe(844 - 140)

    // The badges keep their units, and a tap explains them.
    const shown = (l: Locator) => l.evaluate((el) => (el as HTMLElement).innerText.replace(/\s+/g, ' '))
    expect(await shown(page.getByTestId('co2-badge'))).toMatch(/^[\d.<]+ g CO2$/)
    const trees = page.getByTestId('trees-badge')
    expect(await shown(trees)).toMatch(/^\d+ trees?$/)
    await trees.tap()
    await page.getByRole('tooltip').filter({ hasText: 'One tree is planted' }).waitFor()
    expect(unexpectedErrors()).toEqual([])
  })

  it("'@' makes a thread with a plain-text title, shown above the conversation", async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport: { width: 1440, height: 900 } })
    const threads = new ThreadList(page)
    await chat.send('Second message with **bold** and `inline code`')
    await chat.waitForReply('Second message with bold and inline code')
    await chat
      .replyFooter('Second message with bold and inline code')
      .getByRole('button', { name: 'Start new thread from this message' })
      .click()
    await threads.selected().filter({ hasText: 'Second message with bold and inline code' }).waitFor()
    await page
      .getByTestId('conversation-title')
      .filter({ hasText: /^Second message with bold and inline code$/ })
      .waitFor()
    expect(unexpectedErrors()).toEqual([])
  })

  it('the 404 page links home', async () => {
    const { page, unexpectedErrors } = await h.browser.newPage()
    await page.goto(`${h.server.url}/no-such-page`)
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor()
    await page.getByRole('link', { name: 'Go to the home page' }).click()
    await page.waitForURL(`${h.server.url}/`)
    expect(unexpectedErrors([/404|Not Found|Failed to load resource/])).toEqual([])
  })

  it('a Free user back at ?subscription=success is told the payment is being confirmed', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat()
    await page.goto(`${h.server.url}/chat?subscription=success`)
    await page.waitForURL(`${h.server.url}/account`)
    await chat.toast('Your payment is being confirmed').waitFor()
    expect(await chat.toast('Welcome to Loris Pro!').count()).toBe(0)
    expect(await chat.toast('Your subscription has been activated').count()).toBe(0)
    expect(unexpectedErrors()).toEqual([])
  })
})
