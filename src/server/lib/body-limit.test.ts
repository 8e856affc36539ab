// The API's body limits over real HTTP, as main.ts serves the app (@hono/node-server): a declared
// length is checked from the header, a chunked body as it is read, and neither a GET nor a JSON
// body turns the server's lightweight request into a full WHATWG Request.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../../tests/helpers/test-app.ts'

let t: TestApp
let server: ServerType
let port = 0
/** The request objects the server handed to the app, by path. */
const seen = new Map<string, Request>()
/** A path whose request the wrapper reads the body of itself: shows that the probe below works. */
const CONTROL = '/api/health'

/** Whether @hono/node-server made a full Request for this one (its cache, by its symbol's name). */
const materialized = (req: Request) =>
  Object.getOwnPropertySymbols(req).some((s) => s.description === 'requestCache')

beforeAll(async () => {
  t = await createTestApp()
  await new Promise<void>((resolve) => {
    server = serve(
      {
        fetch: (req, env) => {
          const path = new URL(req.url).pathname
          seen.set(`${req.method} ${path}`, req)
          if (req.method === 'POST' && path === CONTROL) void req.body
          return t.app.fetch(req, env)
        },
        port: 0,
        hostname: '127.0.0.1',
      },
      () => resolve(),
    )
  })
  port = (server.address() as AddressInfo).port
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await t.close()
})

/** A POST over node:http: with Content-Length, or chunked (no length) when `chunked`. */
function post(
  path: string,
  body: string,
  chunked = false,
): Promise<{ status: number; body: string; connection?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        // A connection of its own that asks to be kept, as browsers do.
        agent: new http.Agent({ keepAlive: true }),
        headers: {
          'content-type': 'application/json',
          origin: TEST_ORIGIN,
          ...(chunked ? {} : { 'content-length': Buffer.byteLength(body) }),
        },
      },
      (res) => {
        const parts: Buffer[] = []
        res.on('data', (d: Buffer) => parts.push(d))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(parts).toString(),
            connection: res.headers.connection,
          }),
        )
      },
    )
    req.on('error', reject)
    if (chunked) {
      // Written in pieces so Node sends it chunked.
      for (let i = 0; i < body.length; i += 64 * 1024) req.write(body.slice(i, i + 64 * 1024))
      req.end()
    } else req.end(body)
  })
}

describe('API body limits over HTTP', () => {
  const big = JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) })

  it('refuses a body whose declared length is over the limit, and one sent chunked', async () => {
    for (const chunked of [false, true]) {
      const res = await post('/api/login', big, chunked)
      expect(res.status).toBe(413)
      expect(JSON.parse(res.body)).toMatchObject({
        code: 'payload_too_large:body',
        error: 'The request is too large (limit 1 MB)',
      })
      // The unread rest of the body ends the connection: the client is told not to reuse it.
      expect(res.connection).toBe('close')
    }
  })

  it('reads a JSON body within the limit, with a length or chunked', async () => {
    for (const chunked of [false, true]) {
      const res = await post(
        '/api/login',
        JSON.stringify({ email: 'nobody@b.co', password: 'not it' }),
        chunked,
      )
      expect(res.status).toBe(401)
    }
  })

  it('answers GETs and JSON posts without making a full Request of them', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200)
    const login = await post('/api/login', JSON.stringify({ email: 'nobody@b.co', password: 'not it' }))
    expect(login.status).toBe(401)
    expect(materialized(seen.get('GET /api/health')!)).toBe(false)
    expect(materialized(seen.get('POST /api/login')!)).toBe(false)
    // The probe sees one when the body is read as a stream (the wrapper does it for CONTROL).
    await post(CONTROL, '{}')
    expect(materialized(seen.get(`POST ${CONTROL}`)!)).toBe(true)
  })
})
