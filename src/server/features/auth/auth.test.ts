import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sessionSchema, userSchema } from '#contract/user.ts'
import { sessions, threads, users } from '#server/db/schema/index.ts'
import { createTestApp, sessionCookie, type TestApp } from '../../../../tests/helpers/test-app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const password = 'a long enough password'

describe('register', () => {
  it('creates the account with its Default thread and a session', async () => {
    const res = await t.request('/api/register', {
      method: 'POST',
      json: { email: '  New.Person@Example.COM ', password },
    })
    expect(res.status).toBe(201)
    const body = await res.json()
    // Exactly the spec's fields, never the hash.
    expect(Object.keys(body).sort()).toEqual(Object.keys(userSchema.shape).sort())
    expect(body).toMatchObject({
      email: 'new.person@example.com',
      co2Saved: 0,
      treesPlanted: 0,
      aiInputChars: 0,
    })
    const cookie = res.headers.getSetCookie()[0] ?? ''
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)
    const owned = await t.deps.database.db.select().from(threads).where(eq(threads.userId, body.id))
    expect(owned.map((th) => [th.title, th.isDefault])).toEqual([['Default', true]])
    const [row] = await t.deps.database.db.select().from(users).where(eq(users.id, body.id))
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/)
  })

  it('stores only a hash of the session token', async () => {
    const { cookie, user } = await t.signUp()
    const token = cookie.split('=')[1] as string
    const rows = await t.deps.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, user.id as string))
    expect(rows).toHaveLength(1)
    expect(rows[0]?.id).not.toContain(token)
  })

  it('refuses a taken e-mail with 409', async () => {
    await t.signUp('taken@example.com')
    const res = await t.request('/api/register', {
      method: 'POST',
      json: { email: 'TAKEN@example.com', password },
    })
    expect(res.status).toBe(409)
    expect(await res.json()).toMatchObject({ error: 'An account with this e-mail already exists' })
  })

  it.each([
    [{ email: 'not-an-email', password }, 'Please enter a valid email address'],
    [{ email: 'short@example.com', password: 'short' }, 'Password must be at least 8 characters'],
    [{ password }, 'Please enter your e-mail address'],
  ])('validates %j', async (json, message) => {
    const res = await t.request('/api/register', { method: 'POST', json })
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ code: 'bad_request:input', message })
  })
})

describe('login, user, logout', () => {
  it('signs in, reads the user, signs out and the session is gone', async () => {
    await t.signUp('login@example.com', password)
    const login = await t.request('/api/login', {
      method: 'POST',
      json: { email: 'Login@example.com', password },
    })
    expect(login.status).toBe(200)
    const cookie = sessionCookie(login)
    const me = await t.request('/api/user', { cookie })
    expect(me.status).toBe(200)
    expect((await me.json()).email).toBe('login@example.com')
    const out = await t.request('/api/logout', { method: 'POST', cookie })
    expect(out.status).toBe(200)
    expect((await t.request('/api/user', { cookie })).status).toBe(401)
  })

  it('answers the same 401 for an unknown e-mail and a wrong password', async () => {
    await t.signUp('wrongpw@example.com', password)
    const wrong = await t.request('/api/login', {
      method: 'POST',
      json: { email: 'wrongpw@example.com', password: 'nope nope' },
    })
    const unknown = await t.request('/api/login', {
      method: 'POST',
      json: { email: 'nobody@example.com', password },
    })
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect((await wrong.json()).error).toBe('Invalid e-mail or password')
    expect((await unknown.json()).error).toBe('Invalid e-mail or password')
  })

  it('GET /api/user without a session is 401', async () => {
    const res = await t.request('/api/user')
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({ code: 'unauthorized:session' })
  })

  it('GET /api/session answers 200 either way: the user when signed in, null for a visitor', async () => {
    const visitor = await t.request('/api/session')
    expect(visitor.status).toBe(200)
    expect(sessionSchema.parse(await visitor.json())).toEqual({ user: null })

    const { cookie } = await t.signUp('session@example.com', password)
    const signedIn = sessionSchema.parse(await (await t.request('/api/session', { cookie })).json())
    expect(signedIn.user).toEqual(await (await t.request('/api/user', { cookie })).json())

    await t.request('/api/logout', { method: 'POST', cookie })
    expect(await (await t.request('/api/session', { cookie })).json()).toEqual({ user: null })
  })

  it('rate-limits login per e-mail with Retry-After', async () => {
    await t.signUp('limited@example.com', password)
    let last: Response | undefined
    for (let i = 0; i < 11; i++) {
      last = await t.request('/api/login', {
        method: 'POST',
        json: { email: 'limited@example.com', password: 'wrong guess' },
      })
    }
    expect(last?.status).toBe(429)
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  it('expires sessions after 30 days', async () => {
    const { cookie, user } = await t.signUp()
    await t.deps.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user.id as string))
    expect((await t.request('/api/user', { cookie })).status).toBe(401)
  })
})

describe('protections', () => {
  it('refuses a state-changing request from another origin', async () => {
    const res = await t.request('/api/login', {
      method: 'POST',
      json: { email: 'x@example.com', password },
      headers: { origin: 'https://evil.example' },
    })
    expect(res.status).toBe(403)
    expect((await res.json()).code).toBe('forbidden:origin')
  })

  it('answers malformed JSON with 400 and the error shape', async () => {
    const res = await t.request('/api/login', {
      method: 'POST',
      body: '{"email": ',
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.code).toMatch(/^bad_request/)
    expect(body.message).toBeTruthy()
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts/)
  })

  it('answers an oversized body with 413', async () => {
    const res = await t.request('/api/login', {
      method: 'POST',
      body: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(413)
    expect((await res.json()).code).toBe('payload_too_large:body')
  })

  it('answers an unknown API route with a JSON 404', async () => {
    const res = await t.request('/api/nope')
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ code: 'not_found:route' })
  })

  it('sends security headers', async () => {
    const res = await t.request('/api/health')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'")
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('x-request-id')).toBeTruthy()
  })

  it("lets no cache keep a person's API answers, and leaves a policy a route chose", async () => {
    const { cookie } = await t.signUp()
    for (const [path, who] of [
      ['/api/user', cookie],
      ['/api/threads', cookie],
      ['/api/user', undefined],
      ['/api/nope', cookie],
    ] as const) {
      const res = await t.request(path, { cookie: who })
      expect(res.headers.get('cache-control'), `${path} ${res.status}`).toBe('no-store')
    }
    const bad = await t.request('/api/login', {
      method: 'POST',
      body: '{',
      headers: { 'content-type': 'application/json' },
    })
    expect(bad.status).toBe(400)
    expect(bad.headers.get('cache-control')).toBe('no-store')
    const catalogue = await t.request('/api/impact/models')
    expect(catalogue.status).toBe(200)
    expect(catalogue.headers.get('cache-control')).toBe('public, max-age=3600')
  })
})
