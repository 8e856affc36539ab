import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type McpStandIn, startMcpStandIn } from '../../../../tests/stand-ins/mcp.ts'
import { createMcpTools, parseMcpServers } from './mcp.ts'

describe('MCP servers', () => {
  let standIn: McpStandIn
  beforeAll(async () => {
    standIn = await startMcpStandIn()
  })
  afterAll(() => standIn.close())

  it('reads MCP_SERVERS and names what is wrong', () => {
    expect(parseMcpServers(undefined)).toEqual([])
    expect(() => parseMcpServers('{')).toThrow(/not valid JSON/)
    expect(() => parseMcpServers('[{"name":"a b","url":"http://x"}]')).toThrow(/0.name: name is 1 to 32/)
    expect(() => parseMcpServers('[{"name":"a","url":"nope"}]')).toThrow(/0.url/)
    expect(() =>
      parseMcpServers('[{"name":"a","url":"http://x/1"},{"name":"a","url":"http://x/2"}]'),
    ).toThrow(/"a" is used twice/)
  })

  it("offers a server's tools under its name and calls them", async () => {
    const mcp = createMcpTools(
      parseMcpServers(JSON.stringify([{ name: 'zoo', url: standIn.url, approval: ['lookup_species'] }])),
    )
    try {
      const tools = await mcp.tools(() => {})
      expect(Object.keys(tools)).toEqual(['zoo__lookup_species'])
      expect(mcp.needsApproval('zoo__lookup_species')).toBe(true)
      const result = await tools.zoo__lookup_species?.execute?.(
        { name: 'loris' },
        { toolCallId: '1', messages: [] },
      )
      expect(JSON.stringify(result)).toContain('slow-moving primate')
      expect(standIn.calls).toEqual([{ tool: 'lookup_species', args: { name: 'loris' } }])
    } finally {
      await mcp.close()
    }
  })

  it('leaves out a server that cannot be reached, and says which', async () => {
    const mcp = createMcpTools(parseMcpServers('[{"name":"gone","url":"http://127.0.0.1:1/mcp"}]'))
    const failed: string[] = []
    expect(await mcp.tools((server) => failed.push(server))).toEqual({})
    expect(failed).toEqual(['gone'])
    await mcp.close()
  })
})
