import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type McpStandIn, startMcpStandIn } from '../../../../tests/stand-ins/mcp.ts'
import { createMcpTools, describeMcpServers, parseMcpServers } from './mcp.ts'

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
    // A misspelt key is refused: a tool meant to wait for approval never runs unasked.
    expect(() => parseMcpServers('[{"name":"a","url":"http://x/1","approval":true}]')).toThrow(
      /Unrecognized key: "approval"/,
    )
  })

  it("offers a server's tools under its name and calls them", async () => {
    const mcp = createMcpTools(
      parseMcpServers(JSON.stringify([{ name: 'zoo', url: standIn.url, needsApproval: ['release_animal'] }])),
    )
    try {
      const tools = await mcp.tools(() => {})
      expect(Object.keys(tools)).toEqual(['zoo__lookup_species', 'zoo__release_animal'])
      expect(tools.zoo__release_animal?.needsApproval).toBe(true)
      expect(tools.zoo__lookup_species?.needsApproval).toBeUndefined()
      const result = await tools.zoo__lookup_species?.execute?.(
        { name: 'loris' },
        { toolCallId: '1', messages: [] },
      )
      expect(JSON.stringify(result)).toContain('slow-moving primate')
      expect(standIn.calls).toEqual([{ tool: 'lookup_species', args: { name: 'loris' } }])
    } finally {
      await mcp.close()
    }
    // Closing ends the session on the server.
    expect(standIn.sessions.opened.length).toBeGreaterThan(0)
    expect(standIn.sessions.ended).toEqual(standIn.sessions.opened)
  })

  it("counts each server's tools for the start-up table, and names one that does not answer", async () => {
    const servers = parseMcpServers(
      JSON.stringify([
        { name: 'zoo', url: standIn.url, needsApproval: true },
        { name: 'gone', url: 'http://127.0.0.1:1/mcp' },
      ]),
    )
    expect(await describeMcpServers(servers, 3_000)).toEqual([
      { name: 'zoo', tools: 2, needApproval: 2 },
      { name: 'gone', tools: null, needApproval: 0 },
    ])
  })

  it('leaves out a server that cannot be reached, and says which', async () => {
    const mcp = createMcpTools(parseMcpServers('[{"name":"gone","url":"http://127.0.0.1:1/mcp"}]'))
    const failed: string[] = []
    expect(await mcp.tools((server) => failed.push(server))).toEqual({})
    expect(failed).toEqual(['gone'])
    await mcp.close()
  })
})
