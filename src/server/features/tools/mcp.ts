// Tools from the operator's MCP servers (Streamable HTTP), offered to models that call tools.
// MCP_SERVERS is a JSON array: [{ "name": "files", "url": "https://mcp.example/mcp",
// "headers": { "authorization": "Bearer ..." }, "needsApproval": ["delete_file"] }]; a tool named in
// `needsApproval` (or every tool of the server, with `true`) waits for the person's click before it
// runs (the AI SDK's own `needsApproval`). Decisions 065 and 070.
import { createMCPClient, type MCPClient } from '@ai-sdk/mcp'
import type { ToolSet } from 'ai'
import { z } from 'zod'

// Strict: a misspelt key (say `approval`) is an error, never a tool that runs unasked.
const serverSchema = z.strictObject({
  name: z
    .string()
    .regex(
      /^[a-zA-Z0-9_-]{1,32}$/,
      'name is 1 to 32 letters, digits, "_" or "-": it prefixes the tool names',
    ),
  url: z.url(),
  headers: z.record(z.string(), z.string()).optional(),
  needsApproval: z.union([z.boolean(), z.array(z.string())]).default(false),
})
export type McpServerConfig = z.infer<typeof serverSchema>

/** The servers MCP_SERVERS lists; a message naming what is wrong when it is not valid JSON of them. */
export function parseMcpServers(value: string | undefined): McpServerConfig[] {
  if (!value) return []
  let json: unknown
  try {
    json = JSON.parse(value)
  } catch {
    throw new Error('MCP_SERVERS: not valid JSON (a list like [{"name":"files","url":"https://..."}])')
  }
  const parsed = z.array(serverSchema).safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new Error(`MCP_SERVERS: ${issue?.path.join('.') || '(list)'}: ${issue?.message}`)
  }
  const names = parsed.data.map((s) => s.name)
  const twice = names.find((n, i) => names.indexOf(n) !== i)
  if (twice) throw new Error(`MCP_SERVERS: the name "${twice}" is used twice`)
  return parsed.data
}

export interface McpTools {
  /**
   * Every server's tools, named `<server>__<tool>`, those the operator marked carrying
   * `needsApproval: true`; a server that cannot be reached is left out.
   */
  tools(onError: (server: string, err: unknown) => void): Promise<ToolSet>
  /** Ends every open session (the server is told: an HTTP DELETE of the session). */
  close(): Promise<void>
}

const needsApproval = (server: McpServerConfig, tool: string) =>
  server.needsApproval === true ||
  (Array.isArray(server.needsApproval) && server.needsApproval.includes(tool))

export function createMcpTools(servers: McpServerConfig[]): McpTools {
  const clients = new Map<string, Promise<MCPClient>>()
  const client = (server: McpServerConfig) => {
    let found = clients.get(server.name)
    if (!found) {
      found = createMCPClient({ transport: { type: 'http', url: server.url, headers: server.headers } })
      // A failed connection is tried again on the next send.
      found.catch(() => clients.delete(server.name))
      clients.set(server.name, found)
    }
    return found
  }

  return {
    async tools(onError) {
      const sets = await Promise.all(
        servers.map(async (server) => {
          try {
            const tools = await (await client(server)).tools()
            return Object.entries(tools).map(
              ([name, tool]) =>
                [
                  `${server.name}__${name}`,
                  needsApproval(server, name) ? { ...tool, needsApproval: true } : tool,
                ] as const,
            )
          } catch (err) {
            clients.delete(server.name)
            onError(server.name, err)
            return []
          }
        }),
      )
      return Object.fromEntries(sets.flat())
    },
    async close() {
      const open = [...clients.values()]
      clients.clear()
      await Promise.all(open.map(async (c) => (await c.catch(() => null))?.close()))
    },
  }
}

/**
 * What each server offers, for the start-up table: how many tools and how many of them need
 * approval; `tools` is null when the server did not answer within `ms`.
 */
export async function describeMcpServers(
  servers: McpServerConfig[],
  ms: number,
): Promise<Array<{ name: string; tools: number | null; needApproval: number }>> {
  return Promise.all(
    servers.map(async (server) => {
      const mcp = createMcpTools([server])
      let failed = false
      const listed = await Promise.race([
        mcp.tools(() => {
          failed = true
        }),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), ms)),
      ])
      // Not awaited: a server that has not answered yet would hold the start-up.
      void mcp.close().catch(() => {})
      const names = listed && !failed ? Object.keys(listed) : null
      return {
        name: server.name,
        tools: names ? names.length : null,
        needApproval:
          names?.filter((n) => needsApproval(server, n.slice(server.name.length + 2))).length ?? 0,
      }
    }),
  )
}
