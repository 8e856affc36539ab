// A loopback stand-in for the web-search providers Loris can use, each in its own wire format:
// SearXNG (GET /search?format=json), Brave (GET /res/v1/web/search, X-Subscription-Token) and
// Tavily (POST /search, Bearer key). It answers every query with `results` and records what it
// was asked, so tests see the query a model chose.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { headerRecord, readBody, sendJson } from './http-helpers.ts'

export interface StandInResult {
  url: string
  title: string
  snippet: string
}

export interface SearchStandIn {
  url: string
  queries: Array<{ provider: 'searxng' | 'brave' | 'tavily'; query: string; headers: Record<string, string> }>
  results: StandInResult[]
  close(): Promise<void>
}

export const SEARCH_KEY = 'search-stand-in-key'

export async function startSearchStandIn(results: StandInResult[]): Promise<SearchStandIn> {
  const standIn: Omit<SearchStandIn, 'url' | 'close'> = { queries: [], results }
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in')
    const headers = headerRecord(req)
    if (req.method === 'GET' && url.pathname === '/search' && url.searchParams.get('format') === 'json') {
      standIn.queries.push({ provider: 'searxng', query: url.searchParams.get('q') ?? '', headers })
      return sendJson(res, 200, {
        query: url.searchParams.get('q'),
        results: standIn.results.map((r) => ({
          url: r.url,
          title: r.title,
          content: r.snippet,
          engine: 'stand-in',
        })),
      })
    }
    if (req.method === 'GET' && url.pathname === '/res/v1/web/search') {
      if (headers['x-subscription-token'] !== SEARCH_KEY) return sendJson(res, 401, { error: 'bad token' })
      standIn.queries.push({ provider: 'brave', query: url.searchParams.get('q') ?? '', headers })
      return sendJson(res, 200, {
        type: 'search',
        web: {
          results: standIn.results.map((r) => ({ url: r.url, title: r.title, description: r.snippet })),
        },
      })
    }
    if (req.method === 'POST' && url.pathname === '/search') {
      if (headers.authorization !== `Bearer ${SEARCH_KEY}`) return sendJson(res, 401, { error: 'bad key' })
      const body = JSON.parse((await readBody(req, 64 * 1024)).toString() || '{}') as { query?: string }
      standIn.queries.push({ provider: 'tavily', query: body.query ?? '', headers })
      return sendJson(res, 200, {
        query: body.query,
        results: standIn.results.map((r) => ({ url: r.url, title: r.title, content: r.snippet, score: 0.9 })),
      })
    }
    sendJson(res, 404, { error: 'unknown route' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return Object.assign(standIn, {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  })
}
