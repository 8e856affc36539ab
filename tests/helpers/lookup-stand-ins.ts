// The loopback services a reply that looks things up talks to: the AI providers, a web search
// (SearXNG's format) answering SEARCH_RESULTS, and an MCP server named zoo. Started together and
// closed together, those already started included when a later one fails to start.
import { type AiStandIn, startAiStandIn } from '../stand-ins/ai-providers.ts'
import { type McpStandIn, startMcpStandIn } from '../stand-ins/mcp.ts'
import { type SearchStandIn, type StandInResult, startSearchStandIn } from '../stand-ins/search.ts'

export const SEARCH_RESULTS: StandInResult[] = [
  { url: 'https://lorises.example/news', title: 'Slow lorises in the news', snippet: 'A new species.' },
  { url: 'https://zoo.example/loris', title: 'Loris care at the zoo', snippet: 'They sleep all day.' },
]

export interface LookupStandIns {
  ai: AiStandIn
  search: SearchStandIn
  mcp: McpStandIn
  /** Gemini answered by the AI stand-in, and web search by the search stand-in. */
  env(): Record<string, string>
  /** MCP_SERVERS naming the zoo stand-in, with the tools that wait for the person's approval. */
  mcpServers(needsApproval?: string[]): Record<string, string>
  close(): Promise<void>
}

export async function startLookupStandIns(): Promise<LookupStandIns> {
  const started: { close(): Promise<void> }[] = []
  // Every one is closed, whichever fails to; the first failure is then thrown.
  const closeAll = async () => {
    const closed = await Promise.allSettled([...started].reverse().map((s) => s.close()))
    const failed = closed.find((c) => c.status === 'rejected')
    if (failed) throw failed.reason
  }
  const start = async <T extends { close(): Promise<void> }>(starting: Promise<T>) => {
    const standIn = await starting
    started.push(standIn)
    return standIn
  }
  try {
    const ai = await start(startAiStandIn())
    const search = await start(startSearchStandIn(SEARCH_RESULTS))
    const mcp = await start(startMcpStandIn())
    return {
      ai,
      search,
      mcp,
      env: () => ({ GEMINI_API_KEY: 'test', GEMINI_BASE_URL: ai.geminiBaseUrl, SEARXNG_URL: search.url }),
      mcpServers: (needsApproval) => ({
        MCP_SERVERS: JSON.stringify([{ name: 'zoo', url: mcp.url, needsApproval }]),
      }),
      close: closeAll,
    }
  } catch (err) {
    await closeAll().catch(() => {})
    throw err
  }
}
