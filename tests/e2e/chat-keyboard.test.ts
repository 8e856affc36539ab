// Keyboard and layout (issue 13): shortcuts for a new chat, the message box, thread search,
// Stop and versions, a sheet listing them ('?' or Ctrl+/); the thread panel's width is
// remembered and the list collapses on desktop.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ThreadList } from '../pages/thread-list.ts'
import { type ChatHarness, startChatHarness } from './support/chat-harness.ts'

let h: ChatHarness
beforeAll(async () => {
  h = await startChatHarness({ emailPrefix: 'keys' })
})
afterAll(() => h?.close())
beforeEach(() => h.standIn.reset())

const focusedLabel = (page: import('playwright-core').Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null)

describe('keyboard', () => {
  it('drives the chat from the keyboard and lists the shortcuts', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport: { width: 1440, height: 900 } })
    await chat.send('keyed')
    await chat.waitForReply('keyed', 'Echo: keyed')
    await chat.regenerate('keyed', 'Gemini')
    await chat.replyFooter('keyed').getByTestId('version-switcher').waitFor()
    await chat.waitForReply('keyed', 'Echo: keyed')
    expect(await chat.versionText('keyed')).toBe('2/2')

    // Single keys act outside text fields only.
    await chat.composer().focus()
    await page.keyboard.press('[')
    expect(await chat.composer().inputValue()).toBe('[')
    await chat.composer().fill('')
    await page.locator('body').click({ position: { x: 700, y: 400 } })
    await page.keyboard.press('[')
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="version-switcher"]')?.textContent?.startsWith('1/2'),
    )
    await page.keyboard.press(']')
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="version-switcher"]')?.textContent?.startsWith('2/2'),
    )

    await page.keyboard.press('Control+k')
    expect(await focusedLabel(page)).toBe('Search threads')
    await page.keyboard.press('Shift+Escape')
    expect(await focusedLabel(page)).toBe('Message')

    // Esc stops a reply being written.
    await chat.send('Stop me by key [[scenario:slow]]')
    await chat.reply('Stop me by key').filter({ hasText: 'Echo:' }).waitFor()
    await page.keyboard.press('Escape')
    await chat.waitForReply('Stop me by key', 'Reply stopped')

    await page.keyboard.press('Control+Shift+O')
    await page.waitForURL(/\/chat\/new$/)
    expect(await focusedLabel(page)).toBe('Message')

    await page.locator('body').click({ position: { x: 700, y: 400 } })
    await page.keyboard.press('Shift+?')
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
    await sheet.waitFor()
    for (const label of ['New chat', 'Focus the message box', 'Search threads', 'Stop the reply'])
      expect(await sheet.getByText(label, { exact: true }).count()).toBe(1)
    await page.keyboard.press('Escape')
    await sheet.waitFor({ state: 'detached' })
    await chat.composer().focus()
    await page.keyboard.press('Control+/')
    await sheet.waitFor()
    expect(unexpectedErrors()).toEqual([])
  })

  it('remembers the thread panel width and collapses the list', async () => {
    const { page, unexpectedErrors } = await h.signedInChat({ viewport: { width: 1440, height: 900 } })
    const threads = new ThreadList(page)
    const separator = page.getByRole('separator', { name: 'Resize thread list' })
    await separator.focus()
    await page.keyboard.press('ArrowRight')
    await page.waitForFunction(
      () => document.querySelector('[role="separator"]')?.getAttribute('aria-valuenow') === '35',
    )
    await page.reload()
    await separator.waitFor()
    await page.waitForFunction(
      () => document.querySelector('[role="separator"]')?.getAttribute('aria-valuenow') === '35',
    )

    await page.getByRole('button', { name: 'Hide thread list' }).click()
    await threads.root().waitFor({ state: 'hidden' })
    await page.reload()
    await page.getByRole('button', { name: 'Show thread list' }).waitFor()
    expect(await threads.root().isVisible()).toBe(false)
    await page.getByRole('button', { name: 'Show thread list' }).click()
    await threads.root().waitFor()
    expect(unexpectedErrors()).toEqual([])
  })
})
