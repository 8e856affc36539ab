// Replies that look things up (decision 065): a tool-calling model's web_search and MCP tool
// calls, the eco model's search done first, and links read only where the fetch guard allows.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configSchema } from '#contract/config.ts'
import { messageListSchema } from '#contract/messages.ts'
import { setUpAiTestApp } from '../../../../tests/helpers/ai-test-app.ts'
import { readEvents, replyText, settled } from '../../../../tests/helpers/chat.ts'
import { type McpStandIn, startMcpStandIn } from '../../../../tests/stand-ins/mcp.ts'
import { type SearchStandIn, startSearchStandIn } from '../../../../tests/stand-ins/search.ts'

const RESULTS = [
  {
    url: 'https://lorises.example/news',
    title: 'Slow lorises in the news',
    snippet: 'A new species was named.',
  },
  { url: 'https://zoo.example/loris', title: 'Loris care at the zoo', snippet: 'They sleep all day.' },
]

let search: SearchStandIn
let mcp: McpStandIn
// A page on loopback, counting the requests it receives.
let page: { url: string; hits: number; server: Server }
beforeAll(async () => {
  search = await startSearchStandIn(RESULTS)
  mcp = await startMcpStandIn()
  const server = createServer((_, res) => {
    page.hits++
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(
      '<html><head><title>The loris page</title></head><body><article><h1>Lorises</h1>' +
        '<p>Lorises are nocturnal primates with a venomous bite, found in South and Southeast Asia. '.repeat(
          4,
        ) +
        '</p></article></body></html>',
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  page = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/article`, hits: 0, server }
})
afterAll(async () => {
  await search?.close()
  await mcp?.close()
  page?.server.closeAllConnections()
  await new Promise<void>((resolve) => page?.server.close(() => resolve()))
})

const lookups = (ai: { openaiBaseUrl: string }) => ({
  OPENAI_API_KEY: 'test',
  OPENAI_BASE_URL: ai.openaiBaseUrl,
  ECO_BASE_URL: ai.openaiBaseUrl,
  ECO_MODEL: 'loris-eco',
  ECO_API_KEY: 'test',
  SEARXNG_URL: search.url,
  MCP_SERVERS: JSON.stringify([{ name: 'zoo', url: mcp.url }]),
})
// The shipped default: links on this machine's network are refused.
const app = setUpAiTestApp(lookups)
const db = () => app.t.deps.database.db

async function send(body: Record<string, unknown>, t = app.t) {
  const { cookie } = await t.signUp()
  const res = await t.request('/api/messages', { method: 'POST', cookie, json: body })
  expect(res.status).toBe(200)
  const events = await readEvents(res)
  const id = events[0]?.id as string
  const threadId = events[0]?.threadId as string
  const list = messageListSchema.parse(
    await (await t.request(`/api/messages?threadId=${threadId}`, { cookie })).json(),
  )
  return { events, id, threadId, cookie, message: list.find((m) => m.id === id) }
}

/** The system text the stand-in model was last sent (OpenAI wire format). */
function lastSystemText(): string {
  const body = app.ai.requests.at(-1)?.body as { messages: { role: string; content: string }[] }
  return body.messages.find((m) => m.role === 'system')?.content ?? ''
}

describe('replies that look things up', () => {
  it('lets Gemini call web_search, streams the step and sources, and stores them with the reply', async () => {
    const { events, id, message } = await send({
      content: '[[tool:web_search {"query":"slow loris news"}]] What is new with lorises?',
      webSearch: true,
    })
    expect(search.queries.map((q) => q.query)).toContain('slow loris news')
    const steps = events.flatMap((e) => (e.toolStep ? [e.toolStep] : []))
    expect(steps.map((s) => s.status)).toEqual(['running', 'done'])
    expect(steps[1]).toMatchObject({ name: 'web_search', args: { query: 'slow loris news' } })
    expect(steps[1]?.result).toContain('[1] Slow lorises in the news')
    expect(events.find((e) => e.sources)?.sources).toEqual(RESULTS)
    expect(replyText(events)).toContain('Here is what I found [1].')
    expect(events.at(-1)).toMatchObject({ done: true, sources: RESULTS })
    // The message JSON carries them, and the row the finish wrote.
    expect(message?.sources).toEqual(RESULTS)
    expect(message?.toolSteps?.[0]).toMatchObject({ name: 'web_search', status: 'done' })
    const row = await settled(db(), id)
    expect(row.sources).toEqual(RESULTS)
  })

  it("exports and shares a reply's sources", async () => {
    const { threadId, cookie } = await send({
      content: '[[tool:web_search {"query":"loris"}]] Lorises?',
      webSearch: true,
    })
    const exported = await (
      await app.t.request(`/api/threads/${threadId}/export?format=json`, { cookie })
    ).json()
    expect(exported.messages[0].sources).toEqual(RESULTS)
    expect(exported.messages[0].toolSteps[0]).toMatchObject({ name: 'web_search', status: 'done' })
    const markdown = await (
      await app.t.request(`/api/threads/${threadId}/export?format=markdown`, { cookie })
    ).text()
    expect(markdown).toContain('Sources:\n\n1. [Slow lorises in the news](https://lorises.example/news)')
    const shared = await app.t.request(`/api/threads/${threadId}/share`, {
      method: 'POST',
      cookie,
      json: { allowIndexing: false },
    })
    expect(shared.status).toBe(201)
    const { token } = (await shared.json()) as { token: string }
    const page = await (await app.t.request(`/api/shares/${token}`)).json()
    expect(page.exchanges[0].sources).toEqual(RESULTS)
  })

  it('says in the config whether this server can search', async () => {
    const config = configSchema.parse(await (await app.t.request('/api/config')).json())
    expect(config.webSearch).toEqual({ available: true, reason: null })
  })

  it('offers no web_search when the toggle is off (the MCP tools and read_link still)', async () => {
    const before = search.queries.length
    const { events, message } = await send({ content: 'Hello there', webSearch: false, useOpenAI: true })
    expect(events.some((e) => e.toolStep)).toBe(false)
    expect(search.queries.length).toBe(before)
    expect(message?.sources).toEqual([])
    // MCP tools are offered, web_search is not.
    const body = app.ai.requests.at(-1)?.body as { tools?: { function: { name: string } }[] }
    expect(body.tools?.map((t) => t.function.name).sort()).toEqual([
      'read_link',
      'zoo__lookup_species',
      'zoo__release_animal',
    ])
  })

  it("calls an MCP server's tool for ChatGPT and shows its step", async () => {
    const { events, message } = await send({
      content: '[[tool:zoo__lookup_species {"name":"loris"}]] Tell me about lorises',
      useOpenAI: true,
    })
    expect(mcp.calls).toContainEqual({ tool: 'lookup_species', args: { name: 'loris' } })
    const done = events.find((e) => e.toolStep?.status === 'done')?.toolStep
    expect(done).toMatchObject({ name: 'zoo__lookup_species', args: { name: 'loris' } })
    expect(done?.result).toContain('slow-moving primate')
    expect(message?.toolSteps?.[0]?.result).toContain('slow-moving primate')
    expect(replyText(events)).toContain('slow-moving primate')
  })

  it('searches first for the eco model and puts the numbered results in its prompt', async () => {
    const { events, message } = await send({ content: 'lorises today', webSearch: true, isEcoMode: true })
    expect(search.queries.at(-1)?.query).toBe('lorises today')
    const system = lastSystemText()
    expect(system).toContain('[1] Slow lorises in the news (https://lorises.example/news)')
    expect(system).toContain('[2] Loris care at the zoo')
    expect(events.find((e) => e.sources)?.sources).toEqual(RESULTS)
    expect(message?.sources).toEqual(RESULTS)
    // The provider's input count covers the prompt with the results in it.
    const row = await settled(db(), events[0]?.id as string)
    expect(row.inputTokens).toBeGreaterThan(Math.ceil(system.length / 4) - 1)
  })

  it('refuses a pasted loopback link by default: the page server receives no request', async () => {
    const hits = page.hits
    const { message } = await send({ content: `Summarise ${page.url} please`, isEcoMode: true })
    expect(page.hits).toBe(hits)
    expect(lastSystemText()).toContain(`The link ${page.url} could not be read`)
    expect(message?.sources).toEqual([])
  })
})

describe('links under READ_LINK_ALLOW_PRIVATE=true (tests only)', () => {
  const open = setUpAiTestApp((ai) => ({ ...lookups(ai), READ_LINK_ALLOW_PRIVATE: 'true' }))

  it("reads a loopback page and gives the model its text with the page's title as a source", async () => {
    const hits = page.hits
    const { message } = await send({ content: `Summarise ${page.url} please`, isEcoMode: true }, open.t)
    expect(page.hits).toBe(hits + 1)
    const body = open.ai.requests.at(-1)?.body as { messages: { role: string; content: string }[] }
    const system = body.messages.find((m) => m.role === 'system')?.content ?? ''
    expect(system).toContain(`[1] The loris page (${page.url})`)
    expect(system).toContain('nocturnal primates with a venomous bite')
    expect(message?.sources).toEqual([{ url: page.url, title: 'The loris page' }])
  })
})
