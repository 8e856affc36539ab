// The built server keeps idle connections a minute (main.ts), so a person's next send reuses
// theirs; a stop must still not wait for them. SIGTERM mid-reply: the reply streams to its end,
// and the process stops as soon as that connection is idle, not when the minute (or the forced
// close of in-flight requests) is up. No browser: the subject is the process.
import { rmSync } from 'node:fs'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type AiStandIn, startAiStandIn } from '../stand-ins/ai-providers.ts'
import { type McpStandIn, startMcpStandIn } from '../stand-ins/mcp.ts'
import { type AppServer, startAppServer } from './support/app-server.ts'
import { chatEvents, signUp } from './support/chat-api.ts'
import { aiProviderEnv } from './support/chat-harness.ts'

let ai: AiStandIn
let mcp: McpStandIn
let server: AppServer | undefined
beforeAll(async () => {
  ai = await startAiStandIn()
  mcp = await startMcpStandIn()
})
// After every attempt (a retry starts its own server): one that was not stopped is killed.
afterEach(async () => {
  if (!server) return
  await server.crash().catch(() => undefined)
  rmSync(server.dataDir, { recursive: true, force: true })
  server = undefined
})
afterAll(async () => {
  await ai?.close()
  await mcp?.close()
})

describe('stopping a server that keeps connections alive', () => {
  it('finishes the reply in flight, then stops without waiting for the idle connection', async () => {
    server = await startAppServer(aiProviderEnv(ai))
    const { url } = server
    const health = await fetch(`${url}/api/health`)
    await health.arrayBuffer()
    expect(health.headers.get('keep-alive')).toBe('timeout=65')

    const cookie = await signUp(url, 'stop')

    ai.setChunkDelayMs(100)
    const res = await fetch(`${url}/api/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url, cookie },
      body: JSON.stringify({
        content: 'Tell me slowly [[scenario:slow]]',
        clientMessageId: 'stop-1',
        isEcoMode: false,
        useOpenAI: false,
      }),
    })
    expect(res.status).toBe(200)
    const events = chatEvents(res)
    expect((await events.until((e) => e.some((x) => x.text))).some((x) => x.text)).toBe(true)

    const stopped = server.stop()
    const all = await events.until((e) => e.some((x) => x.done || x.error))
    expect(all.at(-1)).toMatchObject({ done: true, status: 'complete' })
    await stopped
    const logs = server.logs.join('')
    server = undefined
    expect(logs).toContain('"msg":"stopped"')
    // The forced close (15 s after the signal) is what an idle kept-alive connection would wait for.
    expect(logs).not.toContain('did not finish in time')
  })

  it('stops on SIGTERM when whatever read its output has gone', async () => {
    server = await startAppServer({})
    const { child } = server
    // The reader of its output (a log shipper, a terminal) goes away; the server keeps running.
    child.stdout?.destroy()
    child.stderr?.destroy()
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200)
    // Its last lines are written as it exits, into the closed pipe: that must not keep it alive.
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    await server.stop()
    server = undefined
  })

  it('ends its MCP sessions: the MCP server is told of each (an HTTP DELETE)', async () => {
    server = await startAppServer({
      ...aiProviderEnv(ai),
      MCP_SERVERS: JSON.stringify([{ name: 'zoo', url: mcp.url }]),
    })
    const { url } = server
    const cookie = await signUp(url, 'mcp-stop')
    const res = await fetch(`${url}/api/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url, cookie },
      body: JSON.stringify({
        content: '[[tool:zoo__lookup_species {"name":"loris"}]] Tell me about lorises',
        clientMessageId: 'mcp-stop-1',
        useOpenAI: true,
      }),
    })
    const events = chatEvents(res)
    expect((await events.until((e) => e.some((x) => x.done || x.error))).at(-1)).toMatchObject({ done: true })
    expect(mcp.calls).toContainEqual({ tool: 'lookup_species', args: { name: 'loris' } })
    // The reply's session is still open while the server runs.
    const open = () => mcp.sessions.opened.filter((id) => !mcp.sessions.ended.includes(id))
    expect(open().length).toBeGreaterThan(0)
    await server.stop()
    server = undefined
    expect(open()).toEqual([])
  })
})
