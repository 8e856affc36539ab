// A loopback MCP server (Streamable HTTP, the official SDK's own server) with one tool,
// `lookup_species`, recording each call: tests see that a model's tool call reached it.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { z } from 'zod'

export interface McpStandIn {
  url: string
  calls: Array<{ tool: string; args: unknown }>
  close(): Promise<void>
}

export async function startMcpStandIn(): Promise<McpStandIn> {
  const calls: McpStandIn['calls'] = []
  const server: Server = createServer(async (req, res) => {
    // Stateless: a server and transport per request, as the SDK's stateless example does.
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
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined })
    res.on('close', () => {
      void transport.close()
      void mcp.close()
    })
    await mcp.connect(transport)
    await transport.handleRequest(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
