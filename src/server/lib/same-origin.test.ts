// The Host and Origin rules: a page that rebinds its name to this machine (DNS rebinding) is
// answered 421 before anything runs, and only PUBLIC_URL's origin (loopback ones outside
// production) may write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts'

const PASSWORD = 'correct horse battery'
let n = 0

/** POST /api/register at `base` (the address the browser asked for), with `headers`. */
function register(t: TestApp, base: string, headers: Record<string, string> = {}) {
  n += 1
  const url = new URL('/api/register', base)
  return t.app.request(url.href, {
    method: 'POST',
    headers: { host: url.host, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email: `host-${n}-${Date.now()}@example.com`, password: PASSWORD }),
  })
}

describe('in development (PUBLIC_URL http://localhost:5000)', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(() => t.close())

  it('answers a rebound name 421 and registers no one', async () => {
    const before = (await t.deps.database.db.select().from(users)).length
    const res = await register(t, 'http://rebind.example:5201', { origin: 'http://rebind.example:5201' })
    expect(res.status).toBe(421)
    const body = await res.json()
    expect(body.code).toBe('misdirected:host')
    expect(body.message).toBe(
      'This server answers at http://localhost:5000, not at rebind.example:5201. Open Loris at its own address; if this is the address people use, set PUBLIC_URL to it.',
    )
    expect((await t.deps.database.db.select().from(users)).length).toBe(before)
    // Reads too: the page would learn what the app answers.
    const page = await t.app.request('http://rebind.example:5201/api/config')
    expect(page.status).toBe(421)
  })

  it('answers a loopback name on any port, and takes writes only from pages on its own', async () => {
    for (const base of ['http://localhost:5000', 'http://127.0.0.1:5000', 'http://[::1]:5000'])
      expect((await register(t, base, { origin: base })).status, base).toBe(201)
    // Another local server's page is same-site with localhost:5000, its cookies and all.
    expect((await register(t, 'http://localhost:5000', { origin: 'http://localhost:3000' })).status).toBe(403)
    // A server on a free port (tests, a local proxy) is asked at that port: answered, but a page
    // there is not ours.
    expect((await t.app.request('http://127.0.0.1:41234/api/config')).status).toBe(200)
    expect((await register(t, 'http://localhost:3000', { origin: 'http://localhost:3000' })).status).toBe(403)
  })
})

describe('in production on this machine only (PUBLIC_URL unset: http://127.0.0.1:5000)', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({
      NODE_ENV: 'production',
      SESSION_SECRET: 'production-secret-production-secret-0123',
      PUBLIC_URL: '',
    })
  })
  afterAll(() => t.close())

  it('answers every loopback name on its port', async () => {
    for (const base of ['http://127.0.0.1:5000', 'http://localhost:5000', 'http://[::1]:5000'])
      expect((await register(t, base, { origin: base })).status, base).toBe(201)
    expect(
      (await register(t, 'http://rebind.example:5000', { origin: 'http://rebind.example:5000' })).status,
    ).toBe(421)
    expect((await register(t, 'http://localhost:3000', { origin: 'http://localhost:3000' })).status).toBe(421)
  })
})

describe('in production (PUBLIC_URL https://loris.example)', () => {
  const env = {
    NODE_ENV: 'production',
    SESSION_SECRET: 'production-secret-production-secret-0123',
    PUBLIC_URL: 'https://loris.example',
  }
  let t: TestApp
  let proxied: TestApp
  beforeAll(async () => {
    t = await createTestApp(env)
    proxied = await createTestApp({ ...env, TRUST_PROXY: 'true' })
  })
  afterAll(async () => {
    await t?.close()
    await proxied?.close()
  })

  it('answers only its public host, from its public origin', async () => {
    // A TLS proxy passes the Host on: the app is reached over http with the public name.
    const origin = { origin: 'https://loris.example' }
    expect((await register(t, 'http://loris.example', origin)).status).toBe(201)
    expect((await register(t, 'http://LORIS.example:443', origin)).status).toBe(201)
    expect((await register(t, 'http://loris.example', { origin: 'http://loris.example' })).status).toBe(403)
    expect((await register(t, 'http://localhost:5000', { origin: 'http://localhost:5000' })).status).toBe(421)
    expect((await register(t, 'http://loris.example:8080', origin)).status).toBe(421)
    // A health probe names the node's own address.
    expect((await t.app.request('http://10.0.0.7:5000/api/health')).status).toBe(200)
    expect((await t.app.request('http://10.0.0.7:5000/api/config')).status).toBe(421)
  })

  it('reads the host a trusted proxy was asked for from X-Forwarded-Host, and only then', async () => {
    const origin = { origin: 'https://loris.example' }
    // A proxy that names its upstream in Host says the public one in X-Forwarded-Host.
    const upstream = 'http://127.0.0.1:5000'
    expect(
      (await register(proxied, upstream, { ...origin, 'x-forwarded-host': 'loris.example' })).status,
    ).toBe(201)
    // Written by the client before the proxy's own entry: not believed.
    expect(
      (await register(proxied, upstream, { ...origin, 'x-forwarded-host': 'loris.example, rebind.example' }))
        .status,
    ).toBe(421)
    expect((await register(proxied, upstream, origin)).status).toBe(421)
    expect(
      (await register(proxied, 'http://loris.example', { ...origin, 'x-forwarded-host': 'a@loris.example' }))
        .status,
    ).toBe(421)
    // Without TRUST_PROXY the header is anyone's: the Host decides.
    expect((await register(t, upstream, { ...origin, 'x-forwarded-host': 'loris.example' })).status).toBe(421)
    expect(
      (await register(t, 'http://loris.example', { ...origin, 'x-forwarded-host': 'rebind.example' })).status,
    ).toBe(201)
  })
})
