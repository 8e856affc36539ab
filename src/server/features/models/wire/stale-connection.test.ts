// A kept-alive connection the provider closes just as it is reused: the request, never read by the
// provider, is sent once more on a new connection. A connection reset on a new connection is an
// error (the provider may have read that request). The one retry must not take another kept
// connection the provider closed too.
import { createServer, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { nodeRequest } from './node-request.ts'

/** A provider that answers "ok", except that it drops the connection of the requests `drop` picks. */
async function provider(drop: (nthOnConnection: number, connection: number) => boolean) {
  const served = new Map<Socket, number>()
  const log: { connection: number; dropped: boolean }[] = []
  const connections: Socket[] = []
  const server: Server = createServer((req, res) => {
    const n = (served.get(req.socket) ?? 0) + 1
    served.set(req.socket, n)
    const connection = connections.indexOf(req.socket)
    const dropped = drop(n, connection)
    log.push({ connection, dropped })
    req.resume()
    if (dropped) req.socket.destroy()
    else res.end('ok')
  })
  server.on('connection', (s) => connections.push(s))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat`
  /** Closes every connection from the provider's side, as a provider does with idle ones. */
  const closeKept = () => {
    for (const s of connections) s.destroy()
  }
  return { url, log, closeKept, close: () => new Promise((r) => server.close(r)), server }
}

const post = (url: string) => nodeRequest(url, { method: 'POST', body: '{"q":1}' })

let open: { close: () => Promise<unknown>; server: Server } | undefined
afterEach(async () => {
  open?.server.closeAllConnections()
  await open?.close()
})

describe('a connection the provider closed as it was reused', () => {
  it('sends the request once more on a new connection', async () => {
    // The second request on a connection finds it closed (as at the end of an idle spell).
    const p = await provider((n) => n === 2)
    open = p
    expect(await (await post(p.url)).text()).toBe('ok')
    const again = await post(p.url)
    expect(again.status).toBe(200)
    expect(await again.text()).toBe('ok')
    expect(p.log).toEqual([
      { connection: 0, dropped: false },
      { connection: 0, dropped: true },
      { connection: 1, dropped: false },
    ])
  })

  it('does not send again when a new connection is reset', async () => {
    const p = await provider(() => true)
    open = p
    await expect(post(p.url)).rejects.toMatchObject({ code: 'ECONNRESET' })
    expect(p.log).toEqual([{ connection: 0, dropped: true }])
  })

  it('sends once more only: a reset of the new connection too is the error', async () => {
    const p = await provider((n, connection) => (connection === 0 && n === 2) || connection === 1)
    open = p
    await (await post(p.url)).text()
    await expect(post(p.url)).rejects.toMatchObject({ code: 'ECONNRESET' })
    expect(p.log).toEqual([
      { connection: 0, dropped: false },
      { connection: 0, dropped: true },
      { connection: 1, dropped: true },
    ])
  })

  it('sends once more on a new connection, not on another kept one the provider closed too', async () => {
    // Two connections kept, both closed by the provider when next used (as after an idle spell,
    // when every kept connection goes at once).
    const p = await provider((n, connection) => n === 2 && connection < 2)
    open = p
    await Promise.all([post(p.url), post(p.url)].map(async (r) => (await r).text()))
    const again = await post(p.url)
    expect(await again.text()).toBe('ok')
    expect(p.log.slice(2)).toEqual([
      { connection: expect.any(Number), dropped: true },
      { connection: 2, dropped: false },
    ])
  })
})
