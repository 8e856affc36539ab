// SSE written straight to the Node response (decision 019): the app served by @hono/node-server as
// main.ts serves it, against the loopback AI stand-in. The headers are those of the Response the
// middlewares finished (security headers included), each event is one write, and a client that
// goes away stops only its subscription.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import net from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type ChatEvent, parseChatEventLine } from '#contract/chat-events.ts'
import { setUpAiTestApp } from '../../../../tests/helpers/ai-test-app.ts'
import { settled, waitFor } from '../../../../tests/helpers/chat.ts'
import { TEST_ORIGIN } from '../../../../tests/helpers/test-app.ts'
import { directSseStats, withDirectSse } from './sse.ts'
import { openStreams } from './text-frames.ts'

const app = setUpAiTestApp()
let server: ServerType
let port = 0
beforeAll(async () => {
  await new Promise<void>((resolve) => {
    server = serve({ fetch: withDirectSse(app.t.app.fetch), port: 0, hostname: '127.0.0.1' }, () => resolve())
  })
  port = (server.address() as AddressInfo).port
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

/** POST /api/messages over a real socket; the answer's head and its body chunk by chunk. */
function send(cookie: string, content: string) {
  const body = JSON.stringify({ content })
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/messages',
        method: 'POST',
        headers: {
          cookie,
          origin: TEST_ORIGIN,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      resolve,
    )
    req.on('error', reject)
    req.end(body)
  })
}

async function eventsOf(res: http.IncomingMessage) {
  let raw = ''
  for await (const chunk of res) raw += String(chunk)
  return raw
    .split('\n\n')
    .map((line) => parseChatEventLine(line.trim()))
    .filter((e): e is ChatEvent => !!e)
}

/** Headers that differ from one answer to the next or with the transport. */
const varying = new Set(['date', 'x-request-id', 'connection', 'keep-alive', 'transfer-encoding'])
const stable = (headers: Iterable<[string, string | string[] | undefined]>) =>
  Object.fromEntries(
    [...headers].filter(([k]) => !varying.has(k.toLowerCase())).map(([k, v]) => [k.toLowerCase(), String(v)]),
  )

describe('SSE written straight to the Node response', () => {
  it('has the same headers as the Response the middlewares made, security headers included', async () => {
    const { cookie } = await app.t.signUp()
    const viaApp = await app.t.request('/api/messages', {
      method: 'POST',
      cookie,
      json: { content: 'Hello' },
    })
    await viaApp.text()
    const before = directSseStats.responses
    const res = await send(cookie, 'Hello again')
    await eventsOf(res)
    expect(directSseStats.responses - before).toBe(1)
    const direct = stable(Object.entries(res.headers))
    expect(direct).toEqual(stable(viaApp.headers.entries()))
    expect(direct['content-security-policy']).toContain("default-src 'self'")
    expect(direct['content-type']).toBe('text/event-stream; charset=utf-8')
    expect(direct['cache-control']).toBe('no-cache, no-transform')
    expect(direct['x-frame-options']).toBe('DENY')
  })

  it('writes each event with one write, the head with the first', async () => {
    const { cookie } = await app.t.signUp()
    app.ai.setChunkDelayMs(25)
    const writes = vi.spyOn(http.ServerResponse.prototype, 'write')
    // What reaches the socket: the head goes with the first event, not in a packet of its own.
    // Counted when written (a finished response leaves its socket).
    let toSocket = 0
    const socket = net.Socket.prototype as unknown as Record<
      '_writev' | '_write',
      (...args: unknown[]) => void
    >
    const socketWrites = (['_writev', '_write'] as const).map((method) => {
      const original = socket[method]
      return vi.spyOn(socket, method).mockImplementation(function (this: net.Socket, ...args: unknown[]) {
        const message = (this as { _httpMessage?: http.ServerResponse })._httpMessage
        if (message?.req?.url === '/api/messages') toSocket++
        return original.apply(this, args)
      })
    })
    try {
      const content = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ')
      const events = await eventsOf(await send(cookie, content))
      expect(events.at(-1)).toMatchObject({ done: true, status: 'complete' })
      expect(events.map((e) => e.text ?? '').join('')).toContain('w59')
      // Tokens 25 ms apart go one per frame: many events, one write each.
      expect(events.length).toBeGreaterThan(15)
      // Only Loris's own answers (the stand-in in this process writes too).
      const ours = writes.mock.contexts.filter(
        (res) => (res as http.ServerResponse).req?.url === '/api/messages',
      )
      expect(ours.length).toBe(events.length)
      expect(toSocket).toBe(events.length)
    } finally {
      writes.mockRestore()
      for (const spy of socketWrites) spy.mockRestore()
      app.ai.reset()
    }
  })

  it('a client that goes away leaves the stream; the reply is still written', async () => {
    const { cookie } = await app.t.signUp()
    app.ai.setScenario('slow')
    try {
      const open = openStreams()
      const res = await send(cookie, 'one two three four five six seven eight nine ten')
      const first = await new Promise<ChatEvent>((resolve) =>
        res.once('data', (chunk) => resolve(parseChatEventLine(String(chunk).split('\n\n')[0]!.trim())!)),
      )
      expect(openStreams()).toBe(open + 1)
      res.destroy()
      await waitFor(async () => openStreams() === open)
      const row = await settled(app.t.deps.database.db, first.id!)
      expect(row.status).toBe('complete')
    } finally {
      app.ai.reset()
    }
  })
})
