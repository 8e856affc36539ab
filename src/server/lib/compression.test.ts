// Answers are compressed as before (gzip or deflate by Accept-Encoding, over 1 KB, Vary), and the
// app's JSON is gzipped in one call: no CompressionStream and no piped body for it (counted).
import { gunzipSync, inflateSync } from 'node:zlib'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { threads } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts'

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
