// Answers are compressed as before (gzip or deflate by Accept-Encoding, over 1 KB, Vary), and the
// app's JSON is gzipped in one call from its text: no CompressionStream, no piped body, and over a
// real socket no stream read for it (counted).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync, inflateSync } from 'node:zlib'
import { type ServerType, serve } from '@hono/node-server'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { threads } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts'
import { compressionStats } from './compression.ts'

let t: TestApp
let cookie: string
beforeAll(async () => {
  t = await createTestApp()
  const signed = await t.signUp()
  cookie = signed.cookie
  await t.deps.database.db.insert(threads).values(
    Array.from({ length: 40 }, (_, i) => ({
      userId: signed.user.id as string,
      title: `A thread with a long enough title to fill the page ${i}`,
    })),
  )
})
afterAll(() => t.close())

const page = (acceptEncoding?: string) =>
  t.request('/api/threads?limit=50', {
    cookie,
    headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
  })

it('gzips a JSON answer in one call, with no stream piped for it', async () => {
  const plain = await (await page()).text()
  expect(plain.length).toBeGreaterThan(1024)
  const piped = vi.spyOn(ReadableStream.prototype, 'pipeThrough')
  try {
    const res = await page('gzip, deflate, br')
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect(res.headers.get('vary')).toContain('Accept-Encoding')
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(plain)
    expect(piped).not.toHaveBeenCalled()
  } finally {
    piped.mockRestore()
  }
})

it('leaves small answers, clients without gzip and gzip;q=0 as before', async () => {
  const small = await t.request('/api/session', { headers: { 'accept-encoding': 'gzip' } })
  expect(small.headers.get('content-encoding')).toBeNull()
  expect(small.headers.get('vary')).toContain('Accept-Encoding')
  expect(await small.json()).toEqual({ user: null })
  expect((await page()).headers.get('content-encoding')).toBeNull()
  expect((await page('gzip;q=0, identity')).headers.get('content-encoding')).toBeNull()
  // A client that takes only deflate still gets it (the streaming compressor).
  const deflated = await page('deflate')
  expect(deflated.headers.get('content-encoding')).toBe('deflate')
  const items = JSON.parse(inflateSync(Buffer.from(await deflated.arrayBuffer())).toString()) as {
    items: unknown[]
  }
  expect(items.items.length).toBeGreaterThanOrEqual(40)
})

it('gzips the JSON from its text and hands the Node server its bytes, reading no stream', async () => {
  const plain = await (await page()).text()
  const server = await new Promise<ServerType>((resolve) => {
    const started: ServerType = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolve(started),
    )
  })
  const port = (server.address() as AddressInfo).port
  const get = (headers: Record<string, string>) =>
    new Promise<{ res: http.IncomingMessage; body: Buffer }>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/api/threads?limit=50', headers }, (res) => {
        const parts: Buffer[] = []
        res.on('data', (part: Buffer) => parts.push(part))
        res.on('end', () => resolve({ res, body: Buffer.concat(parts) }))
      })
      req.on('error', reject)
    })
  const streamReads = vi.spyOn(ReadableStream.prototype, 'getReader')
  const before = { ...compressionStats }
  try {
    const { res, body } = await get({ cookie, 'accept-encoding': 'gzip' })
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.headers.vary).toContain('Accept-Encoding')
    expect(gunzipSync(body).toString()).toBe(plain)
    // Small answers keep their text too, with their length.
    const small = await get({ 'accept-encoding': 'gzip' })
    expect(small.res.headers['content-encoding']).toBeUndefined()
    expect(small.res.headers['content-length']).toBe(String(small.body.length))
    expect(JSON.parse(small.body.toString())).toMatchObject({ error: expect.any(String) })
    expect(compressionStats.fromText - before.fromText).toBe(2)
    expect(compressionStats.readBack - before.readBack).toBe(0)
    // Read back, the answer became a full Response whose body the server read as a stream.
    expect(streamReads).not.toHaveBeenCalled()
  } finally {
    streamReads.mockRestore()
    await new Promise((resolve) => server.close(resolve))
  }
})
