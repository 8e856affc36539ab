// Web search through the provider the operator configured: SearXNG (self-hosted, no key: the
// recommended one), Brave Search or Tavily. Each answers the same shape: the top results with
// title, address and a snippet, which become the reply's numbered sources. Decision 065.
import { z } from 'zod'
import type { Env } from '#server/env.ts'
import { AppError } from '#server/lib/app-error.ts'

export interface SearchResult {
  url: string
  title: string
  snippet?: string
}

export interface WebSearch {
  /** 'searxng', 'brave' or 'tavily': shown in the start-up table. */
  provider: string
  search(query: string, opts?: { signal?: AbortSignal; count?: number }): Promise<SearchResult[]>
}

export const SEARCH_DEFAULTS = { count: 5, timeoutMs: 8_000, snippetChars: 400 }

const text = z.string().catch('')
const searxngAnswer = z.object({
  results: z.array(z.object({ url: z.string(), title: text, content: text.optional() })).catch([]),
})
const braveAnswer = z.object({
  web: z
    .object({ results: z.array(z.object({ url: z.string(), title: text, description: text.optional() })) })
    .optional(),
})
const tavilyAnswer = z.object({
  results: z.array(z.object({ url: z.string(), title: text, content: text.optional() })).catch([]),
})

const stripTags = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim()

function clean(results: SearchResult[], count: number): SearchResult[] {
  const seen = new Set<string>()
  const out: SearchResult[] = []
  for (const r of results) {
    let url: URL
    try {
      url = new URL(r.url)
    } catch {
      continue
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || seen.has(url.href)) continue
    seen.add(url.href)
    const snippet = r.snippet ? stripTags(r.snippet).slice(0, SEARCH_DEFAULTS.snippetChars) : undefined
    out.push({
      url: url.href,
      title: stripTags(r.title).slice(0, 300) || url.hostname,
      ...(snippet ? { snippet } : {}),
    })
    if (out.length >= count) break
  }
  return out
}

async function askProvider(provider: string, request: Request, signal?: AbortSignal): Promise<unknown> {
  const timeout = AbortSignal.timeout(SEARCH_DEFAULTS.timeoutMs)
  let res: Response
  try {
    res = await fetch(request, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout })
  } catch (err) {
    if (signal?.aborted) throw err
    throw new AppError(
      'bad_gateway:search',
      `The web search (${provider}) did not answer. Try again in a moment.`,
    )
  }
  if (!res.ok)
    throw new AppError(
      'bad_gateway:search',
      `The web search (${provider}) answered with status ${res.status}.`,
    )
  try {
    return await res.json()
  } catch {
    throw new AppError(
      'bad_gateway:search',
      `The web search (${provider}) sent an answer Loris could not read.`,
    )
  }
}

function searxng(base: string): WebSearch {
  return {
    provider: 'searxng',
    async search(query, opts = {}) {
      const url = new URL('search', base.endsWith('/') ? base : `${base}/`)
      url.searchParams.set('q', query)
      url.searchParams.set('format', 'json')
      const answer = searxngAnswer.parse(await askProvider('SearXNG', new Request(url), opts.signal))
      return clean(
        answer.results.map((r) => ({ url: r.url, title: r.title, snippet: r.content })),
        opts.count ?? SEARCH_DEFAULTS.count,
      )
    },
  }
}

function brave(key: string, base: string): WebSearch {
  return {
    provider: 'brave',
    async search(query, opts = {}) {
      const count = opts.count ?? SEARCH_DEFAULTS.count
      const url = new URL('res/v1/web/search', base)
      url.searchParams.set('q', query)
      url.searchParams.set('count', String(count))
      const request = new Request(url, {
        headers: { accept: 'application/json', 'x-subscription-token': key },
      })
      const answer = braveAnswer.parse(await askProvider('Brave', request, opts.signal))
      return clean(
        (answer.web?.results ?? []).map((r) => ({ url: r.url, title: r.title, snippet: r.description })),
        count,
      )
    },
  }
}

function tavily(key: string, base: string): WebSearch {
  return {
    provider: 'tavily',
    async search(query, opts = {}) {
      const count = opts.count ?? SEARCH_DEFAULTS.count
      const request = new Request(new URL('search', base), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ query, max_results: count, search_depth: 'basic' }),
      })
      const answer = tavilyAnswer.parse(await askProvider('Tavily', request, opts.signal))
      return clean(
        answer.results.map((r) => ({ url: r.url, title: r.title, snippet: r.content })),
        count,
      )
    },
  }
}

/** The configured search, or null: SearXNG first (no key, self-hosted), then Brave, then Tavily. */
export function createWebSearch(
  env: Pick<
    Env,
    'SEARXNG_URL' | 'BRAVE_SEARCH_API_KEY' | 'BRAVE_SEARCH_BASE_URL' | 'TAVILY_API_KEY' | 'TAVILY_BASE_URL'
  >,
): WebSearch | null {
  if (env.SEARXNG_URL) return searxng(env.SEARXNG_URL)
  if (env.BRAVE_SEARCH_API_KEY)
    return brave(env.BRAVE_SEARCH_API_KEY, env.BRAVE_SEARCH_BASE_URL ?? 'https://api.search.brave.com/')
  if (env.TAVILY_API_KEY) return tavily(env.TAVILY_API_KEY, env.TAVILY_BASE_URL ?? 'https://api.tavily.com/')
  return null
}
