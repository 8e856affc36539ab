// What a reply may look up, as AI SDK tools: `web_search` and `read_link` for models that call
// tools, and the same work done before the call for models that do not (the local eco model):
// the search's top results and the pages of links in the message placed in the prompt. Every
// page read or result given becomes a numbered source of the reply. Decision 065.
import { type ToolSet, tool } from 'ai'
import { z } from 'zod'
import type { Source } from '#contract/tools.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { FetchedPage, GuardedFetchOptions } from './guarded-fetch.ts'
import type { SearchResult, WebSearch } from './web-search.ts'

export type ReadPage = (
  link: string,
  signal?: AbortSignal,
) => Promise<{ url: string; title: string; text: string }>

/** Builds `ReadPage` from the guarded fetch and the parse pool's reader (composed in app.ts). */
export function pageReader(
  fetchPage: (link: string, opts: GuardedFetchOptions) => Promise<FetchedPage>,
  readPage: (bytes: Uint8Array, url: string) => Promise<{ url: string; title: string; text: string }>,
  allowPrivate: boolean,
): ReadPage {
  return async (link, signal) => {
    const page = await fetchPage(link, { allowPrivate, signal })
    if (!/^(text\/html|application\/xhtml\+xml|text\/plain)/.test(page.contentType))
      throw new AppError(
        'unprocessable:page',
        'This link is not a web page Loris can read (it is a file of another kind).',
      )
    return readPage(page.bytes, page.url)
  }
}

/** How much of a read page a model is given. */
export const PAGE_CHARS_FOR_MODEL = 12_000

// Links in a message, at most three; trailing punctuation is the sentence's, not the link's.
const LINK = /\bhttps?:\/\/[^\s<>"'`]+/gi
export function linksIn(text: string, max = 3): string[] {
  const found = new Set<string>()
  for (const match of text.slice(0, 20_000).matchAll(LINK)) {
    found.add(match[0].replace(/[).,;:!?\]]+$/, ''))
    if (found.size >= max) break
  }
  return [...found]
}

/** The sources a reply collects as its tools (or the work before it) run, numbered from 1. */
export class SourceList {
  readonly items: Source[] = []
  add(source: Source): number {
    const at = this.items.findIndex((s) => s.url === source.url)
    if (at >= 0) return at + 1
    this.items.push(source)
    return this.items.length
  }
}

const numbered = (n: number, r: SearchResult) =>
  `[${n}] ${r.title} (${r.url})${r.snippet ? `\n${r.snippet}` : ''}`

export interface Toolbox {
  search: WebSearch | null
  readPage: ReadPage
}

/** The tools a tool-calling model is offered for one reply. */
export function replyTools(box: Toolbox, sources: SourceList, opts: { webSearch: boolean }): ToolSet {
  const tools: ToolSet = {
    read_link: tool({
      description: 'Reads the text of a web page the person linked to or asked about.',
      inputSchema: z.object({ url: z.string().describe('The http(s) address of the page') }),
      execute: async ({ url }, { abortSignal }) => {
        const page = await box.readPage(url, abortSignal)
        const n = sources.add({ url: page.url, title: page.title })
        return `[${n}] ${page.title} (${page.url})\n${page.text.slice(0, PAGE_CHARS_FOR_MODEL)}`
      },
    }),
  }
  const search = box.search
  if (opts.webSearch && search)
    tools.web_search = tool({
      description:
        'Searches the web. Use it for recent events or facts you are unsure of; cite results as [n].',
      inputSchema: z.object({ query: z.string().min(1).max(400).describe('What to search for') }),
      execute: async ({ query }, { abortSignal }) => {
        const results = await search.search(query, { signal: abortSignal })
        if (results.length === 0) return 'No results.'
        return results.map((r) => numbered(sources.add(r), r)).join('\n\n')
      },
    })
  return tools
}

/**
 * For a model without tools: the search done first with the message as the query, and the
 * message's links read, as one block of context for the system prompt (null when there is none).
 */
export async function lookUpFirst(
  box: Toolbox,
  sources: SourceList,
  message: string,
  opts: { webSearch: boolean; signal?: AbortSignal; onError(err: unknown): void },
): Promise<string | null> {
  const parts: string[] = []
  for (const link of linksIn(message)) {
    try {
      const page = await box.readPage(link, opts.signal)
      const n = sources.add({ url: page.url, title: page.title })
      parts.push(`[${n}] ${page.title} (${page.url})\n${page.text.slice(0, PAGE_CHARS_FOR_MODEL)}`)
    } catch (err) {
      opts.onError(err)
      parts.push(
        `The link ${link} could not be read: ${err instanceof AppError ? err.message : 'unknown error'}`,
      )
    }
  }
  if (opts.webSearch && box.search) {
    try {
      const results = await box.search.search(message.slice(0, 400), { signal: opts.signal })
      for (const r of results) parts.push(numbered(sources.add(r), r))
    } catch (err) {
      opts.onError(err)
    }
  }
  if (parts.length === 0) return null
  return `Sources found for this message (cite them as [n] where you use them):\n\n${parts.join('\n\n')}`
}
