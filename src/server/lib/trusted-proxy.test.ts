// Throttles keyed by the caller's address, behind the reverse proxy the README describes
// (TRUST_PROXY=true), over real HTTP: an X-Forwarded-For entry the client writes itself is not
// a new address; believing the first entry would let each request bring its own.
import type { AddressInfo } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WAITLIST_LIMIT } from '#server/features/waitlist/routes.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../../tests/helpers/test-app.ts'

let t: TestApp
let server: ServerType
let base = ''
beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: 'true' })
  await new Promise<void>((resolve) => {
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve())
  })
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await t.close()
})

/** A waitlist sign-up as the proxy passes it on: the client's own entry, then the one the proxy saw. */
const signUp = (i: number, written: string, seen: string) =>
  fetch(`${base}/api/waitlist`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: TEST_ORIGIN,
      'x-forwarded-for': `${written}, ${seen}`,
    },
    body: JSON.stringify({ email: `proxy-${i}@example.com` }),
  })

describe('behind a trusted proxy', () => {
  it('throttles by the address the proxy saw, whatever the client wrote before it', async () => {
    const statuses: number[] = []
    for (let i = 0; i <= WAITLIST_LIMIT.limit; i++)
      statuses.push((await signUp(i, `6.6.${Math.floor(i / 250)}.${i % 250}`, '203.0.113.7')).status)
    expect(statuses.slice(0, WAITLIST_LIMIT.limit).every((s) => s < 300)).toBe(true)
    expect(statuses.at(-1)).toBe(429)
    // Another address the proxy saw has its own budget.
    expect((await signUp(999, '6.6.6.6', '203.0.113.8')).status).toBeLessThan(300)
  })
})
