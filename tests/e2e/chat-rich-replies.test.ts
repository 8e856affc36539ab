// Replies as the best chat apps show them: code highlighted under a bar with its
// language and Copy (never over the code), math typeset, both loaded only when a reply needs
// them; the ChatGPT border black yet visible, and field borders with enough contrast.
import path from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { chatHarnessForFile } from './support/chat-harness.ts'

const h = chatHarnessForFile({ emailPrefix: 'rich' })

const shots = path.resolve(import.meta.dirname, '../../.tmp/e2e-screenshots')
const RICH_CHUNK = /\/assets\/rich-markdown-[\w-]+\.js$/

/** WCAG contrast of two computed colours (rgb()/rgba() strings, alpha ignored). */
function contrast(a: string, b: string) {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const s = Number(v) / 255
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
    }) as [number, number, number]
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl
  }
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

const pageBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor)

async function box(l: Locator) {
  const b = await l.boundingBox()
  if (!b) throw new Error('not laid out')
  return b
}

describe('rich replies', () => {
  it('highlights code with its language and typesets math, loading that code only when needed', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport: { width: 1440, height: 900 } })
    const loaded: string[] = []
    page.on('request', (r) => {
      if (RICH_CHUNK.test(new URL(r.url()).pathname)) loaded.push(r.url())
    })
    await chat.send('A plain question, with $5 and $10 in it')
    await chat.waitForReply('A plain question')
    expect(loaded).toEqual([])

    await chat.composer().fill('Show me:\n```ts\nconst answer: number = 42\n```')
    await chat.composer().press('Enter')
    const reply = await chat.waitForReply('Show me:', 'Echo: Show me:')
    const block = reply.getByTestId('code-block')
    await block.locator('.hljs-keyword').first().waitFor()
    expect(loaded).toHaveLength(1)
    expect(await block.getByTestId('code-language').textContent()).toBe('ts')
    // Copy sits in the bar above the code, never over it.
    const copy = block.getByRole('button', { name: 'Copy code' })
    const codeBox = await box(block.locator('pre'))
    const copyBox = await box(copy)
    expect(copyBox.y + copyBox.height).toBeLessThanOrEqual(codeBox.y)
    expect(await copy.isVisible()).toBe(true)

    await chat
      .composer()
      .fill('Euler said $e^{i\\pi} + 1 = 0$ and\n\n$$\n\\int_0^1 x\\,dx = \\frac{1}{2}\n$$')
    await chat.composer().press('Enter')
    const maths = await chat.waitForReply('Euler said', 'Echo:')
    await maths.locator('.katex').first().waitFor()
    expect(await maths.locator('.katex-display').count()).toBe(1)
    await page.screenshot({ path: path.join(shots, 'chat-rich-1440.png') })
    expect(unexpectedErrors()).toEqual([])
  })

  it('keeps the ChatGPT border black and visible, and field borders readable', async () => {
    const { page, chat, unexpectedErrors } = await h.signedInChat({ viewport: { width: 390, height: 844 } })
    await chat.chooseMode('ChatGPT')
    await chat.send('Hello from ChatGPT mode')
    const reply = await chat.waitForReply('Hello from ChatGPT mode')
    const bg = await pageBackground(page)
    expect(await chat.borderLeftColor('Hello from ChatGPT mode')).toBe('rgb(0, 0, 0)')
    const outline = await reply.evaluate((el) => getComputedStyle(el).boxShadow)
    // Tailwind's empty ring layers come first as transparent colours: take the drawn ones.
    const drawn = (outline.match(/rgba?\([^)]+\)/g) ?? []).filter((c) => !/,\s*0\)$/.test(c))
    expect(drawn.length).toBeGreaterThan(0)
    const outlineColor = drawn[0] ?? ''
    expect(contrast(outlineColor, bg)).toBeGreaterThanOrEqual(3)

    // The composer's outline, against the page around it.
    const composerBorder = await chat
      .composer()
      .locator('xpath=..')
      .evaluate((el) => getComputedStyle(el).borderTopColor)
    expect(contrast(composerBorder, bg)).toBeGreaterThanOrEqual(3)
    await page.screenshot({ path: path.join(shots, 'chat-chatgpt-border-390.png') })
    expect(unexpectedErrors()).toEqual([])
  })
})
