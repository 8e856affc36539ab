// One reply's lookups as the chat feature asks for them (chat/lookup.ts): a model that calls tools
// is offered web_search, read_link and the MCP servers' tools, each call within TOOL_LIMITS'
// time; a model without tools gets the message's links read and the search done first, as a
// block of the system prompt. Composed in app.ts. Decision 065.
import type { ToolSet } from 'ai'
import type { Logger } from 'pino'
import { TOOL_LIMITS } from '#contract/tools.ts'
import type { Env } from '#server/env.ts'
import { AppError } from '#server/lib/app-error.ts'
import { guardedFetch } from './guarded-fetch.ts'
import { createMcpTools, type McpTools, parseMcpServers } from './mcp.ts'
import { linksIn, lookUpFirst, pageReader, replyTools, SourceList, type Toolbox } from './toolbox.ts'
import { createWebSearch } from './web-search.ts'

/** The chat feature's view (chat/lookup.ts), restated here: features do not import each other. */
export interface LookupRequest {
  callsTools: boolean
  webSearch: boolean
  message: string
  signal: AbortSignal
}

export interface ReplyLookupService {
  prepare(request: LookupRequest): Promise<{
    tools?: ToolSet
    context: string | null
    sources(): SourceList['items']
    addSource(source: SourceList['items'][number]): number
  }>
  close(): Promise<void>
}

/** Each tool call ends within `ms`: its signal aborts then, and the call fails with a reason. */
export function withTimeLimit(tools: ToolSet, ms: number): ToolSet {
  const limited: ToolSet = {}
  for (const [name, t] of Object.entries(tools)) {
    const execute = t.execute
    if (!execute) {
      limited[name] = t
      continue
    }
    limited[name] = {
      ...t,
      execute: (input: unknown, options: Parameters<typeof execute>[1]) => {
        const timer = AbortSignal.timeout(ms)
        const signal = options.abortSignal ? AbortSignal.any([options.abortSignal, timer]) : timer
        const timedOut = new Promise<never>((_, reject) =>
          timer.addEventListener('abort', () =>
            reject(new AppError('request_timeout:tool', `The tool ${name} took longer than ${ms / 1000} s`)),
          ),
        )
        return Promise.race([
          Promise.resolve(execute(input as never, { ...options, abortSignal: signal })),
          timedOut,
        ])
      },
    } as ToolSet[string]
  }
  return limited
}

export function createReplyLookup(
  env: Pick<
    Env,
    | 'SEARXNG_URL'
    | 'BRAVE_SEARCH_API_KEY'
    | 'BRAVE_SEARCH_BASE_URL'
    | 'TAVILY_API_KEY'
    | 'TAVILY_BASE_URL'
    | 'MCP_SERVERS'
    | 'READ_LINK_ALLOW_PRIVATE'
  >,
  deps: {
    log: Logger
    /** The parse pool's reader of a fetched page (attachments, composed in app.ts). */
    readPage: (bytes: Uint8Array, url: string) => Promise<{ url: string; title: string; text: string }>
    mcp?: McpTools | null
  },
): ReplyLookupService {
  const box: Toolbox = {
    search: createWebSearch(env),
    readPage: pageReader(guardedFetch, deps.readPage, env.READ_LINK_ALLOW_PRIVATE === 'true'),
  }
  const servers = parseMcpServers(env.MCP_SERVERS)
  const mcp = deps.mcp ?? (servers.length > 0 ? createMcpTools(servers) : null)
  const log = deps.log.child({ feature: 'tools' })
  const onError = (err: unknown) =>
    log.info({ err: err instanceof AppError ? err.message : err }, 'a lookup failed')

  return {
    async prepare({ callsTools, webSearch, message, signal }) {
      const sources = new SourceList()
      const prepared = {
        sources: () => [...sources.items],
        addSource: (source: SourceList['items'][number]) => sources.add(source),
      }
      if (!callsTools) {
        const context = await lookUpFirst(box, sources, message, { webSearch, signal, onError })
        return { ...prepared, context }
      }
      // Tools only when there is something to look up: a plain message is sent as it was.
      const offered = webSearch || linksIn(message).length > 0 || mcp !== null
      if (!offered) return { ...prepared, context: null }
      const tools: ToolSet = replyTools(box, sources, { webSearch })
      if (mcp) {
        const more = await mcp.tools((server, err) =>
          log.warn({ server, err }, 'an MCP server could not be reached'),
        )
        // A tool the operator marked carries `needsApproval`: the model's call to it ends the
        // reply's turn with an approval request, and runs only once the person approves.
        Object.assign(tools, more)
      }
      return { ...prepared, tools: withTimeLimit(tools, TOOL_LIMITS.stepSeconds * 1000), context: null }
    },
    close: async () => {
      await mcp?.close()
    },
  }
}
