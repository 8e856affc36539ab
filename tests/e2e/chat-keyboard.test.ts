// Keyboard and layout: shortcuts for a new chat, the message box, thread search,
// Stop and versions, a sheet listing them ('?' or Ctrl+/); the thread panel's width is
// remembered and the list collapses on desktop.
import { describe, expect, it } from 'vitest'
import { ThreadList } from '../pages/thread-list.ts'
import { chatHarnessForFile } from './support/chat-harness.ts'

const h = chatHarnessForFile({ emailPrefix: 'keys' })

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

  it('leaves the keys of an input method to it, and Esc in another text field to that field', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport: { width: 1440, height: 900 } })
    await chat.send('typed in kana')
    await chat.waitForReply('typed in kana', 'Echo: typed in kana')
    let sends = 0
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/messages') sends += 1
    })
    // Safari's Enter or Esc that confirms or drops a candidate: isComposing false, keyCode 229.
    const imeKey = (key: string) =>
      page.evaluate((key) => {
        document.activeElement?.dispatchEvent(
          new KeyboardEvent('keydown', { key, keyCode: 229, bubbles: true, cancelable: true }),
        )
        return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
      }, key)
    await chat.composer().fill('にほんご')
    await imeKey('Enter')
    expect(await chat.composer().inputValue()).toBe('にほんご')
    await chat.composer().fill('')

    const exchange = chat.exchange('typed in kana')
    await exchange.getByTestId('user-message').hover()
    await exchange.getByRole('button', { name: 'Edit message' }).click()
    const box = page.getByRole('textbox', { name: 'Edit your message' })
    await box.fill('かな')
    await imeKey('Enter')
    await imeKey('Escape')
    expect(await box.count()).toBe(1)
    expect(await box.inputValue()).toBe('かな')
    await box.press('Escape')
    await box.waitFor({ state: 'detached' })
    expect(sends).toBe(0)

    // Esc clearing the thread search leaves the reply being written alone.
    await chat.send('Keep writing [[scenario:slow]]')
    await chat.reply('Keep writing').filter({ hasText: 'Echo:' }).waitFor()
    const search = page.getByRole('searchbox', { name: 'Search threads' })
    await search.fill('kana')
    await search.press('Escape')
    expect(await search.inputValue()).toBe('')
    await chat.waitForReply('Keep writing', 'while it is arriving.')
    expect(await chat.replyText('Keep writing')).not.toContain('Reply stopped')
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
