import { tool } from 'ai'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type McpStandIn, startMcpStandIn } from '../../../../tests/stand-ins/mcp.ts'
import { createReplyLookup, withTimeLimit } from './reply-lookup.ts'

const noSearch = {
  SEARXNG_URL: undefined,
  BRAVE_SEARCH_API_KEY: undefined,
  BRAVE_SEARCH_BASE_URL: undefined,
  TAVILY_API_KEY: undefined,
  TAVILY_BASE_URL: undefined,
}
const call = { toolCallId: '1', messages: [] }
const noPages = async () => {
  throw new Error('no page reading here')
}

describe('withTimeLimit', () => {
  it('fails a tool call that outlasts its time, its signal aborted', async () => {
    let seen: AbortSignal | undefined
    const slow = tool({
      inputSchema: z.object({}),
      execute: (_, { abortSignal }) => {
        seen = abortSignal
        return new Promise<string>(() => {})
      },
    })
    const fast = tool({ inputSchema: z.object({}), execute: async () => 'quick' })
    const limited = withTimeLimit({ slow, fast }, 50)
    await expect(limited.slow?.execute?.({}, call)).rejects.toThrow('The tool slow took longer than 0.05 s')
    expect(seen?.aborted).toBe(true)
    expect(await limited.fast?.execute?.({}, call)).toBe('quick')
  })
})

describe('createReplyLookup', () => {
  let mcp: McpStandIn
  beforeAll(async () => {
    mcp = await startMcpStandIn()
  })
  afterAll(() => mcp.close())

  const lookupWith = (needsApproval: boolean | string[]) =>
    createReplyLookup(
      {
        ...noSearch,
        READ_LINK_ALLOW_PRIVATE: 'false',
        MCP_SERVERS: JSON.stringify([{ name: 'zoo', url: mcp.url, needsApproval }]),
      },
      { log: pino({ level: 'silent' }), readPage: noPages },
    )
  const request = { callsTools: true, webSearch: true, message: 'hi', signal: new AbortController().signal }

  it('offers MCP tools, those the operator marked asking for approval before they run', async () => {
    const open = lookupWith(false)
    const guarded = lookupWith(['release_animal'])
    try {
      // No search provider configured: no web_search even with the toggle on.
      const offered = (await open.prepare(request)).tools ?? {}
      expect(Object.keys(offered).sort()).toEqual(['read_link', 'zoo__lookup_species', 'zoo__release_animal'])
      expect(offered.zoo__release_animal?.needsApproval).toBeUndefined()
      const tools = (await guarded.prepare(request)).tools ?? {}
      expect(Object.keys(tools).sort()).toEqual(['read_link', 'zoo__lookup_species', 'zoo__release_animal'])
      expect(tools.zoo__release_animal?.needsApproval).toBe(true)
      expect(tools.zoo__lookup_species?.needsApproval).toBeUndefined()
    } finally {
      await open.close()
      await guarded.close()
    }
  })

  it('gives a model without tools no tools, and nothing to add for a message without links', async () => {
    const lookup = lookupWith(false)
    try {
      const prepared = await lookup.prepare({ ...request, callsTools: false })
      expect(prepared.tools).toBeUndefined()
      expect(prepared.context).toBeNull()
      expect(prepared.sources()).toEqual([])
    } finally {
      await lookup.close()
    }
  })
})
