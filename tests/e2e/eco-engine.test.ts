// A fresh server with no keys at all: the Loris eco model is fetched on first use from
// a loopback stand-in for Hugging Face (throttled, so the progress bar shows), then answers in
// the browser. And with no mode at all, the chat says so and the send button says why it waits.
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../helpers/free-port.ts'
import { ChatPage } from '../pages/chat-page.ts'
import { type HfStandIn, startHuggingFaceStandIn } from '../stand-ins/huggingface.ts'
import { type AppServer, startAppServer } from './support/app-server.ts'
import { launchBrowser, type TestBrowser } from './support/browser.ts'

const MODEL = path.resolve(import.meta.dirname, '../fixtures/models/stories260K.gguf')
/** Environment variable names look like this; people must never read one. */
const ENV_NAME = /\b[A-Z][A-Z0-9]+_[A-Z0-9_]+\b/
let n = 0
const email = () => `eco-${Date.now()}-${++n}@example.com`

let browser: TestBrowser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(() => browser?.close())

describe('no keys: the eco model is fetched on first use, then chats', () => {
  let hf: HfStandIn
  let server: AppServer
  beforeAll(async () => {
    const model = await readFile(MODEL)
    hf = await startHuggingFaceStandIn({ repo: 'loris/eco', revision: 'r1', files: { 'eco.gguf': model } })
    // 1.2 MB at 100 kB/s: about 12 s of visible progress.
    hf.setThrottle(100_000)
    server = await startAppServer({
      ECO_ENGINE: 'on',
      ECO_MODEL_URL: hf.resolveUrl('eco.gguf'),
      ECO_MODEL_SHA256: createHash('sha256').update(model).digest('hex'),
    })
  })
  afterAll(async () => {
    await server?.stop()
    await hf?.close()
  })

  it('shows eco being prepared with a progress bar, then streams a reply in eco mode', async () => {
    const { page, unexpectedErrors } = await browser.newPage()
    const chat = new ChatPage(page, server.url)
    await chat.open()
    await chat.signUp(email(), 'a strong password')
    // No stored mode and no Gemini: the server's default, the eco model.
    await page.getByRole('button', { name: 'Chat mode: Loris eco' }).waitFor()

    await chat.openModeMenu()
    const eco = chat.modeMenuItem('Loris eco')
    await eco.getByText(/Being prepared: \d+% of 1 MB/).waitFor()
    const bar = eco.getByRole('progressbar', { name: 'Loris eco model preparation' })
    const first = Number(await bar.getAttribute('aria-valuenow'))
    await page.waitForFunction((before) => {
      const el = document.querySelector('[role="progressbar"]')
      return Number(el?.getAttribute('aria-valuenow') ?? -1) > before
    }, first)
    expect(await chat.modeMenuItem('Gemini').textContent()).toContain(
      'Gemini is not available on this server',
    )
    expect(await chat.modeMenuItem('ChatGPT').textContent()).toContain(
      'ChatGPT is not available on this server',
    )
    expect(await page.getByRole('menu').innerText()).not.toMatch(ENV_NAME)

    // Ready: the bar goes, the entry is an ordinary choice.
    await bar.waitFor({ state: 'detached', timeout: 60_000 })
    await page.keyboard.press('Escape')
    await chat.send('Once upon a time')
    const reply = await chat.waitForReply('Once upon a time')
    expect(await reply.getAttribute('data-model')).toBe('loris')
    expect((await reply.innerText()).trim().length).toBeGreaterThan(0)
    expect(await page.locator('body').innerText()).not.toMatch(ENV_NAME)
    expect(server.logs.join('')).toContain('Loris configuration:')

    // The how-it-works page shows what this server measured for its eco model.
    await page.goto(`${server.url}/howitworks`)
    const figures = page.getByTestId('local-eco-figures')
    await figures.getByText(/Wh$/).waitFor()
    expect(await figures.innerText()).toMatch(
      /Median over the last 1 reply, estimated from the processor time/,
    )
    expect(unexpectedErrors()).toEqual([])
  }, 120_000)
})

describe('no mode at all on this server', () => {
  let server: AppServer
  beforeAll(async () => {
    server = await startAppServer({ ECO_ENGINE: 'off' })
  })
  afterAll(() => server?.stop())

  it('says so before anyone types; the send button is disabled with the reason; no variable names', async () => {
    const { page, unexpectedErrors } = await browser.newPage()
    const chat = new ChatPage(page, server.url)
    await chat.open()
    await page.getByRole('heading', { name: 'No chat mode is available on this server yet' }).waitFor()
    expect(await page.getByText('Loris is ready to help').count()).toBe(0)

    await chat.signUp(email(), 'a strong password')
    await page.getByRole('heading', { name: 'No chat mode is available on this server yet' }).waitFor()
    await chat.composer().fill('hello')
    const send = chat.sendButton()
    expect(await send.isDisabled()).toBe(true)
    expect(await page.locator('#send-unavailable').innerText()).toBe(
      'No chat mode is available on this server yet',
    )
    await chat.composer().press('Enter')
    expect(await chat.exchanges().count()).toBe(0)

    await chat.openModeMenu()
    for (const [label, reason] of [
      ['Gemini', 'Gemini is not available on this server'],
      ['Loris eco', 'The Loris eco model is not available on this server'],
      ['ChatGPT', 'ChatGPT is not available on this server'],
    ] as const) {
      const item = chat.modeMenuItem(label)
      expect(await item.getAttribute('aria-disabled')).toBe('true')
      expect(await item.textContent()).toContain(reason)
    }
    expect(await page.locator('body').innerText()).not.toMatch(ENV_NAME)
    // The operator's start-up table names what each piece needs.
    expect(server.logs.join('')).toMatch(/Gemini\s+not configured\s+GEMINI_API_KEY/)
    expect(unexpectedErrors()).toEqual([])
  })
})

describe('a stored mode this server cannot serve', () => {
  let server: AppServer
  beforeAll(async () => {
    // The model file placed by hand: nothing to fetch.
    server = await startAppServer({ ECO_ENGINE: 'on', ECO_MODEL_FILE: MODEL })
  })
  afterAll(() => server?.stop())

  it("gives way to the server's default, also for a visitor's pre-auth draft", async () => {
    const { page, unexpectedErrors } = await browser.newPage()
    const chat = new ChatPage(page, server.url)
    await chat.open()
    // Chosen on an earlier visit, when this server had ChatGPT.
    await page.evaluate(() => {
      localStorage.setItem('chat-eco-mode', 'false')
      localStorage.setItem('chat-use-openai', 'true')
    })
    await page.reload()
    await page.getByRole('button', { name: 'Chat mode: Loris eco' }).waitFor()
    await chat.send('Once upon a time')
    await chat.dialog().waitFor()
    const stored = await page.evaluate(() => sessionStorage.getItem('pending-chat-message'))
    expect(JSON.parse(stored ?? 'null')).toEqual({
      message: 'Once upon a time',
      isEcoMode: true,
      useOpenAI: false,
    })
    await chat.fillCredentials('Sign up', email(), 'a strong password')
    const reply = await chat.waitForReply('Once upon a time')
    expect(await reply.getAttribute('data-model')).toBe('loris')
    expect(unexpectedErrors()).toEqual([])
  })
})

describe('a server that cannot reach the host of its eco model (offline, nothing configured)', () => {
  it('tells the first visitor there is no chat mode, never that Loris is ready first', async () => {
    // Its own server, also on a retry of this test: only a fresh one has not tried to download.
    const server = await startAppServer({
      ECO_ENGINE: 'on',
      // Nothing listens there: the download fails at once, as on a server with no internet.
      ECO_MODEL_URL: `http://127.0.0.1:${await freePort()}/loris/eco/resolve/r1/eco.gguf`,
      ECO_MODEL_SHA256: '0'.repeat(64),
    })
    try {
      const { page, unexpectedErrors } = await browser.newPage()
      // Every heading the page ever shows, from its first paint (this visit starts the download).
      await page.addInitScript(() => {
        const seen = new Set<string>()
        ;(window as unknown as { headingsSeen: Set<string> }).headingsSeen = seen
        new MutationObserver(() => {
          for (const h of document.querySelectorAll('h1, h2')) seen.add(h.textContent ?? '')
        }).observe(document, { childList: true, subtree: true, characterData: true })
      })
      const chat = new ChatPage(page, server.url)
      await chat.open()
      await page.getByRole('heading', { name: 'No chat mode is available on this server yet' }).waitFor()
      const seen = await page.evaluate(() => [
        ...(window as unknown as { headingsSeen: Set<string> }).headingsSeen,
      ])
      expect(seen).not.toContain('Loris is ready to help')
      expect(await page.locator('body').innerText()).not.toMatch(ENV_NAME)
      expect(unexpectedErrors()).toEqual([])
    } finally {
      await server.stop()
    }
  })
})
