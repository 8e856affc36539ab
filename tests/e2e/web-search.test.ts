// Replies that look things up, in the browser (decision 065): the search toggle, a tool-calling
// model's web_search with numbered sources, the local eco engine given the search first, an MCP
// tool's step, and a pasted loopback link refused by default and read under the test setting.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LookupStandIns, SEARCH_RESULTS, startLookupStandIns } from '../helpers/lookup-stand-ins.ts'
import { ChatPage } from '../pages/chat-page.ts'
import { type AppServer, startAppServer } from './support/app-server.ts'
import { launchBrowser, type TestBrowser } from './support/browser.ts'

const MODEL = path.resolve(import.meta.dirname, '../fixtures/models/stories260K.gguf')
let n = 0
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim()
const email = () => `search-${Date.now()}-${++n}@example.com`

let browser: TestBrowser
let lookups: LookupStandIns
// A page on loopback, counting the requests it receives.
let pageServer: Server
let pageUrl: string
let pageHits = 0
beforeAll(async () => {
  browser = await launchBrowser()
  lookups = await startLookupStandIns()
  pageServer = createServer((_, res) => {
    pageHits++
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(
      `<html><head><title>The loris page</title></head><body><article><h1>Lorises</h1><p>${'Lorises are nocturnal primates of South and Southeast Asia. '.repeat(5)}</p></article></body></html>`,
    )
  })
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve))
  pageUrl = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/article`
})
afterAll(async () => {
  await browser?.close()
  await lookups?.close()
  pageServer?.closeAllConnections()
  await new Promise<void>((resolve) => (pageServer ? pageServer.close(() => resolve()) : resolve()))
})

const models = () => ({
  ...lookups.env(),
  OPENAI_API_KEY: 'test',
  OPENAI_BASE_URL: lookups.ai.openaiBaseUrl,
})

async function signedIn(server: AppServer) {
  const { page, unexpectedErrors } = await browser.newPage()
  const chat = new ChatPage(page, server.url)
  await chat.open()
  await chat.signUp(email(), 'a strong password')
  return { page, chat, unexpectedErrors }
}

describe('the default settings', () => {
  let server: AppServer
  beforeAll(async () => {
    server = await startAppServer({
      ...models(),
      ECO_ENGINE: 'on',
      ECO_MODEL_FILE: MODEL,
      ...lookups.mcpServers(),
    })
  })
  afterAll(() => server?.stop())

  it('shows the numbered sources of a reply whose model searched the web, and keeps them', async () => {
    const { page, chat, unexpectedErrors } = await signedIn(server)
    const toggle = page.getByRole('button', { name: 'Search the web' })
    expect(await toggle.getAttribute('aria-pressed')).toBe('false')
    await toggle.click()
    expect(await toggle.getAttribute('aria-pressed')).toBe('true')
    const asked = '[[tool:web_search {"query":"slow loris news"}]] What is new with lorises?'
    await chat.send(asked)
    const reply = await chat.waitForReply('What is new with lorises?', 'Here is what I found [1].')
    expect(lookups.search.queries.at(-1)?.query).toBe('slow loris news')

    const sources = reply.getByTestId('reply-source')
    await sources.nth(1).waitFor()
    expect((await sources.allInnerTexts()).map(oneLine)).toEqual([
      '[1] Slow lorises in the news · lorises.example',
      '[2] Loris care at the zoo · zoo.example',
    ])
    expect(await sources.first().getByRole('link').getAttribute('href')).toBe(SEARCH_RESULTS[0]?.url)
    // The step, opened: its arguments and what the search answered.
    const step = reply.getByTestId('tool-step')
    expect(await step.getAttribute('data-status')).toBe('done')
    await step.getByText('web_search').click()
    await step
      .getByTestId('tool-step-result')
      .getByText(/\[1\] Slow lorises in the news/)
      .waitFor()
    expect(await step.getByTestId('tool-step-args').innerText()).toContain('slow loris news')

    // Stored with the message: a reload shows them again, and the thread keeps its toggle on.
    await page.reload()
    await chat.waitForReply('What is new with lorises?')
    await chat.reply('What is new with lorises?').getByTestId('reply-source').nth(1).waitFor()
    expect(await page.getByRole('button', { name: 'Search the web' }).getAttribute('aria-pressed')).toBe(
      'true',
    )
    const stored = await page.evaluate(async () => {
      const threadId = new URL(location.href).pathname.split('/').pop()
      const page = (await (await fetch(`/api/messages?threadId=${threadId}`)).json()) as {
        items: { sources: unknown }[]
      }
      return page.items
    })
    expect(stored.at(-1)?.sources).toEqual(SEARCH_RESULTS)
    expect(unexpectedErrors()).toEqual([])
  })

  it('searches first for the local eco engine and shows the sources under its reply', async () => {
    const { page, chat, unexpectedErrors } = await signedIn(server)
    await chat.chooseMode('Loris eco')
    await page.getByRole('button', { name: 'Search the web' }).click()
    const before = lookups.search.queries.length
    await chat.send('Once upon a time lorises')
    const reply = await chat.waitForReply('Once upon a time lorises')
    expect(await reply.getAttribute('data-model')).toBe('loris')
    expect(lookups.search.queries.slice(before).map((q) => q.query)).toEqual(['Once upon a time lorises'])
    await reply.getByTestId('reply-source').nth(1).waitFor()
    expect(await reply.getByTestId('reply-source').first().innerText()).toContain('Slow lorises in the news')
    expect(unexpectedErrors()).toEqual([])
  })

  it("shows an MCP server's tool call as a step of the reply", async () => {
    const { chat, unexpectedErrors } = await signedIn(server)
    await chat.chooseMode('ChatGPT')
    await chat.send('[[tool:zoo__lookup_species {"name":"loris"}]] Tell me about lorises')
    const reply = await chat.waitForReply('Tell me about lorises', 'slow-moving primate')
    expect(lookups.mcp.calls).toContainEqual({ tool: 'lookup_species', args: { name: 'loris' } })
    const step = reply.getByTestId('tool-step')
    await step.getByText('zoo__lookup_species').click()
    await step
      .getByTestId('tool-step-result')
      .getByText(/slow-moving primate/)
      .waitFor()
    expect(unexpectedErrors()).toEqual([])
  })

  it('refuses a pasted loopback link: the page server receives no request', async () => {
    const { chat, unexpectedErrors } = await signedIn(server)
    const hits = pageHits
    await chat.send(`[[tool:read_link {"url":"${pageUrl}"}]] Summarise this page`)
    const reply = await chat.waitForReply('Summarise this page', 'Tool results')
    const step = reply.getByTestId('tool-step')
    expect(await step.getAttribute('data-status')).toBe('failed')
    expect(await reply.getByTestId('reply-source').count()).toBe(0)
    expect(pageHits).toBe(hits)
    expect(unexpectedErrors()).toEqual([])
  })
})

describe('READ_LINK_ALLOW_PRIVATE=true (a test setting, refused in production)', () => {
  let server: AppServer
  beforeAll(async () => {
    server = await startAppServer({ ...models(), READ_LINK_ALLOW_PRIVATE: 'true' })
  })
  afterAll(() => server?.stop())

  it("reads a pasted loopback link and cites the page's title", async () => {
    const { chat, unexpectedErrors } = await signedIn(server)
    const hits = pageHits
    await chat.send(`[[tool:read_link {"url":"${pageUrl}"}]] Summarise this page`)
    const reply = await chat.waitForReply('Summarise this page', 'Here is what I found [1].')
    expect(pageHits).toBe(hits + 1)
    const source = reply.getByTestId('reply-source')
    expect(oneLine(await source.innerText())).toBe(`[1] The loris page · ${new URL(pageUrl).host}`)
    expect(unexpectedErrors()).toEqual([])
  })
})
