// A loopback MCP server (Streamable HTTP, the official SDK's own server) with two tools,
// `lookup_species` and `release_animal` (one an operator would mark as needing approval),
// recording each call and each session: tests see that a model's tool call reached it, and that
// a client that is done ends its session (an HTTP DELETE).
import { randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { z } from 'zod'

export interface McpStandIn {
  url: string
  calls: Array<{ tool: string; args: unknown }>
  /** Sessions clients opened, and those they ended. */
  sessions: { opened: string[]; ended: string[] }
  close(): Promise<void>
}

function standInServer(calls: McpStandIn['calls']): McpServer {
  const mcp = new McpServer({ name: 'loris-stand-in', version: '1.0.0' })
  mcp.registerTool(
    'lookup_species',
    {
      description: 'Looks up facts about an animal species by its common name',
      inputSchema: { name: z.string() },
    },
    async ({ name }) => {
      calls.push({ tool: 'lookup_species', args: { name } })
      return {
        content: [{ type: 'text', text: `${name}: a slow-moving primate of South and Southeast Asia.` }],
      }
    },
  )
  mcp.registerTool(
    'release_animal',
    {
      description: 'Releases an animal of the zoo back into the wild',
      inputSchema: { name: z.string() },
    },
    async ({ name }) => {
      calls.push({ tool: 'release_animal', args: { name } })
      return { content: [{ type: 'text', text: `${name} was released.` }] }
    },
  )
  return mcp
}

export async function startMcpStandIn(): Promise<McpStandIn> {
  const calls: McpStandIn['calls'] = []
  const sessions: McpStandIn['sessions'] = { opened: [], ended: [] }
  const transports = new Map<string, StreamableHTTPServerTransport>()
  const server: Server = createServer(async (req, res) => {
    const id = req.headers['mcp-session-id']
    const known = typeof id === 'string' ? transports.get(id) : undefined
    if (known) return known.handleRequest(req, res)
    if (typeof id === 'string') {
      res.writeHead(404).end()
      return
    }
    // A new session: its own server and transport, as the SDK's stateful example does.
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => {
        transports.set(sessionId, transport)
        sessions.opened.push(sessionId)
      },
      onsessionclosed: (sessionId) => {
        transports.delete(sessionId)
        sessions.ended.push(sessionId)
      },
    })
    await standInServer(calls).connect(transport)
    await transport.handleRequest(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    sessions,
    close: async () => {
      for (const transport of transports.values()) await transport.close()
      await new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
    },
  }
}
