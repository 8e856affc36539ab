// What a reply may look up before and while it is written (web search, links, MCP tools), as the
// chat feature sees it: composed in app.ts from the tools feature. Decision 065.
import type { ToolSet } from 'ai'
import type { Source } from '#contract/tools.ts'

export interface LookupRequest {
  /** The model calls tools itself; otherwise the lookup is done first and put in the prompt. */
  callsTools: boolean
  webSearch: boolean
  /** The person's message: its links are read, and it is the query of a search done first. */
  message: string
  signal: AbortSignal
}

/** One reply's lookups. */
export interface PreparedLookup {
  /** Offered to a model that calls tools; absent when there is nothing to offer. */
  tools?: ToolSet
  /** For a model without tools: the results and pages read, added to the system prompt. */
  context: string | null
  /** Every source so far, numbered from 1 in this order. */
  sources(): Source[]
  /** A source the provider's own grounding cited; answers its number. */
  addSource(source: Source): number
}

export interface ReplyLookup {
  /** Never throws: what cannot be looked up is left out (and logged). */
  prepare(request: LookupRequest): Promise<PreparedLookup>
}
