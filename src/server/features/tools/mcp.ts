// Tools from the operator's MCP servers (Streamable HTTP), offered to models that call tools.
// MCP_SERVERS is a JSON array: [{ "name": "files", "url": "https://mcp.example/mcp",
// "headers": { "authorization": "Bearer ..." }, "approval": ["delete_file"] }]; a tool named in
// `approval` (or every tool, with `true`) waits for the person's click before it runs.
// Decision 065.
import { createMCPClient, type MCPClient } from '@ai-sdk/mcp'
import type { ToolSet } from 'ai'
import { z } from 'zod'

const serverSchema = z.object({
  name: z
    .string()
    .regex(
      /^[a-zA-Z0-9_-]{1,32}$/,
      'name is 1 to 32 letters, digits, "_" or "-": it prefixes the tool names',
    ),
  url: z.url(),
  headers: z.record(z.string(), z.string()).optional(),
  approval: z.union([z.boolean(), z.array(z.string())]).default(false),
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
  /** Every server's tools, named `<server>__<tool>`; a server that cannot be reached is left out. */
  tools(onError: (server: string, err: unknown) => void): Promise<ToolSet>
  /** Whether the person must approve this tool's call before it runs. */
  needsApproval(toolName: string): boolean
  close(): Promise<void>
}

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
  const approvalOf = new Map<string, boolean>()

  return {
    async tools(onError) {
      const sets = await Promise.all(
        servers.map(async (server) => {
          try {
            const tools = await (await client(server)).tools()
            return Object.entries(tools).map(([name, tool]) => {
              const qualified = `${server.name}__${name}`
              approvalOf.set(
                qualified,
                server.approval === true ||
                  (Array.isArray(server.approval) && server.approval.includes(name)),
              )
              return [qualified, tool] as const
            })
          } catch (err) {
            clients.delete(server.name)
            onError(server.name, err)
            return []
          }
        }),
      )
      return Object.fromEntries(sets.flat())
    },
    needsApproval: (toolName) => approvalOf.get(toolName) ?? false,
    async close() {
      const open = [...clients.values()]
      clients.clear()
      await Promise.all(open.map(async (c) => (await c.catch(() => null))?.close()))
    },
  }
}
