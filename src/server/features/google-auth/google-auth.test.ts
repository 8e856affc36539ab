import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '#server/app.ts'
import { threads, users } from '#server/db/schema/index.ts'
import type { AppDeps } from '#server/lib/context.ts'
import {
  createTestApp,
  sessionCookie,
  TEST_ORIGIN,
  type TestApp,
} from '../../../../tests/helpers/test-app.ts'
import {
  googleEnv,
  type OidcBehaviour,
  type OidcStandIn,
  startOidcStandIn,
} from '../../../../tests/stand-ins/oidc.ts'
import { FLOW_COOKIE } from './flow-cookie.ts'

let op: OidcStandIn
let t: TestApp
beforeAll(async () => {
  op = await startOidcStandIn()
  t = await createTestApp(googleEnv(op))
})
afterAll(async () => {
  await t?.close()
  await op?.close()
})

/** Another app (node) on the same database, cheap to build: different env or clock. */
function sibling(over: { env?: Partial<AppDeps['env']>; now?: () => Date } = {}) {
  const app = createApp({ ...t.deps, env: { ...t.deps.env, ...over.env }, now: over.now })
  return (path: string, cookie?: string) =>
    app.request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { cookie } : {} })
}

let n = 0
const googleUser = (over: Partial<{ sub: string; email: string; email_verified: boolean }> = {}) => {
  n += 1
  return {
    sub: `10${Date.now()}${n}`,
    email: `google${n}@example.com`,
    email_verified: true,
    name: 'G',
    ...over,
  }
}

const cookieOf = (res: Response, name: string) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0]

/**
 * The browser's part, by hand: /auth/google, the provider's authorize endpoint (redirects not
 * followed), then the callback with the flow cookie. `alter` may tamper with the callback URL.
 */
async function signInWithGoogle(
  opts: {
    behaviour?: OidcBehaviour
    cookie?: string
    alter?: (url: URL) => void
    flowCookie?: string
    /** The page the sign-in began on, as the client sends it. */
    next?: string
  } = {},
) {
  if (opts.behaviour) op.setNextBehaviour(opts.behaviour)
  const query = opts.next === undefined ? '' : `?${new URLSearchParams({ next: opts.next })}`
  const start = await t.request(`/auth/google${query}`, { cookie: opts.cookie })
  expect(start.status).toBe(302)
  const authorizeUrl = new URL(start.headers.get('location') ?? '')
  const flowCookie = opts.flowCookie ?? cookieOf(start, FLOW_COOKIE)
  const authorized = await fetch(authorizeUrl, { redirect: 'manual' })
  expect(authorized.status).toBe(302)
  const callback = new URL(authorized.headers.get('location') ?? '')
  opts.alter?.(callback)
  const cookie = [flowCookie, opts.cookie].filter(Boolean).join('; ')
  const res = await t.request(`${callback.pathname}${callback.search}`, { cookie })
  return { start, authorizeUrl, callback, res, location: res.headers.get('location') }
}

const userBySub = async (sub: string) =>
  (await t.deps.database.db.select().from(users).where(eq(users.googleId, sub)))[0]

describe('GET /auth/google', () => {
  it('redirects to the provider with PKCE, state, nonce and a signed httpOnly flow cookie', async () => {
    const res = await t.request('/auth/google')
    expect(res.status).toBe(302)
    const url = new URL(res.headers.get('location') ?? '')
    expect(`${url.origin}${url.pathname}`).toBe(`${op.issuer}/authorize`)
    const q = url.searchParams
    expect(q.get('client_id')).toBe(op.clientId)
    expect(q.get('redirect_uri')).toBe('http://localhost:5000/auth/google/callback')
    expect(q.get('response_type')).toBe('code')
    expect(q.get('scope')).toBe('openid email profile')
    expect(q.get('code_challenge_method')).toBe('S256')
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/)
    expect(q.get('state')).toBeTruthy()
    expect(q.get('nonce')).toBeTruthy()
    const set = res.headers.getSetCookie().find((c) => c.startsWith(`${FLOW_COOKIE}=`)) ?? ''
    expect(set).toMatch(/HttpOnly/)
    expect(set).toMatch(/SameSite=Lax/)
    expect(set).toMatch(/Path=\/auth\/google/)
    expect(set).toMatch(/Max-Age=600/)
    // The verifier is not readable in the cookie as plain text next to the state.
    expect(set).not.toContain(q.get('state') ?? '-')
    expect(res.headers.get('cache-control')).toBe('no-store')
  })

  it('explains when Google sign-in is not configured', async () => {
    const bare = sibling({ env: { GOOGLE_CLIENT_ID: undefined, GOOGLE_CLIENT_SECRET: undefined } })
    const res = await bare('/auth/google')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/chat?auth_error=not_configured')
  })

  it('reports an unreachable provider as unavailable, not an error page', async () => {
    const down = sibling({ env: { GOOGLE_ISSUER_URL: 'http://127.0.0.1:9/' } })
    expect((await down('/auth/google')).headers.get('location')).toBe('/chat?auth_error=unavailable')
    // Plain HTTP is for the loopback stand-in only.
    const insecure = sibling({ env: { GOOGLE_ISSUER_URL: 'http://accounts.example.com/' } })
    expect((await insecure('/auth/google')).headers.get('location')).toBe('/chat?auth_error=unavailable')
  })
})

describe('GET /auth/google/callback', () => {
  it('creates an account with its Default thread for a new Google user and signs them in', async () => {
    const g = googleUser({ email: 'New.Googler@Example.com' })
    op.setNextUser(g)
    const { res, location } = await signInWithGoogle()
    expect(res.status).toBe(302)
    expect(location).toBe('/chat?auth=google')
    expect(cookieOf(res, FLOW_COOKIE)).toBe(`${FLOW_COOKIE}=`)
    const me = await (await t.request('/api/user', { cookie: sessionCookie(res) })).json()
    expect(me).toMatchObject({ email: 'new.googler@example.com', googleId: g.sub })
    const owned = await t.deps.database.db.select().from(threads).where(eq(threads.userId, me.id))
    expect(owned.map((th) => th.title)).toEqual(['Default'])
  })

  it('signs a returning Google user into the same account', async () => {
    const g = googleUser()
    op.setNextUser(g)
    const first = await signInWithGoogle()
    const id = (await userBySub(g.sub))?.id
    // Google may report a changed address; the account is found by its Google subject.
    op.setNextUser({ ...g, email: 'changed@example.com' })
    const again = await signInWithGoogle()
    expect(again.location).toBe('/chat?auth=google')
    const me = await (await t.request('/api/user', { cookie: sessionCookie(again.res) })).json()
    expect(me.id).toBe(id)
    expect(me.email).toBe(g.email)
    expect(sessionCookie(again.res)).not.toBe(sessionCookie(first.res))
  })

  it('links an existing password account when Google has verified the e-mail', async () => {
    const { user } = await t.signUp('linkme@example.com')
    // Loris verified this address earlier (its link was opened), so the password is the owner's.
    await t.deps.database.db
      .update(users)
      .set({ emailVerifiedAt: new Date() })
      .where(eq(users.id, user.id as string))
    const g = googleUser({ email: 'LinkMe@example.com', email_verified: true })
    op.setNextUser(g)
    const { res, location } = await signInWithGoogle()
    expect(location).toBe('/chat?auth=google')
    const me = await (await t.request('/api/user', { cookie: sessionCookie(res) })).json()
    expect(me).toMatchObject({ id: user.id, googleId: g.sub })
    // The password still works too.
    const login = await t.request('/api/login', {
      method: 'POST',
      json: { email: 'linkme@example.com', password: 'correct horse battery' },
    })
    expect(login.status).toBe(200)
  })

  it('joins an account whose address Loris never verified only after ending its password', async () => {
    const { user } = await t.signUp('never.verified@example.com')
    op.setNextUser(googleUser({ email: 'never.verified@example.com', email_verified: true }))
    const { res } = await signInWithGoogle()
    const me = await (await t.request('/api/user', { cookie: sessionCookie(res) })).json()
    expect(me).toMatchObject({ id: user.id, emailVerified: true })
    const login = await t.request('/api/login', {
      method: 'POST',
      json: { email: 'never.verified@example.com', password: 'correct horse battery' },
    })
    expect(login.status).toBe(401)
  })

  it('refuses to link when Google has not verified the e-mail, and tells the person to use their password', async () => {
    const { user } = await t.signUp('unverified@example.com')
    const g = googleUser({ email: 'unverified@example.com', email_verified: false })
    op.setNextUser(g)
    const { res, location } = await signInWithGoogle()
    expect(location).toBe('/chat?auth_error=unverified_email')
    expect(cookieOf(res, 'loris_session')).toBeUndefined()
    const [row] = await t.deps.database.db
      .select()
      .from(users)
      .where(eq(users.id, user.id as string))
    expect(row?.googleId).toBeNull()
  })

  it('creates no account for an unverified e-mail', async () => {
    const g = googleUser({ email_verified: false })
    op.setNextUser(g)
    const { location } = await signInWithGoogle()
    expect(location).toBe('/chat?auth_error=unverified_email')
    expect(await userBySub(g.sub)).toBeUndefined()
  })

  it('refuses an account already linked to another Google identity', async () => {
    const first = googleUser({ email: 'taken.by.google@example.com' })
    op.setNextUser(first)
    await signInWithGoogle()
    op.setNextUser(googleUser({ email: 'taken.by.google@example.com' }))
    const { location } = await signInWithGoogle()
    expect(location).toBe('/chat?auth_error=linked_elsewhere')
  })

  it('replaces the session of whoever was signed in before', async () => {
    const { cookie } = await t.signUp()
    op.setNextUser(googleUser())
    const { res } = await signInWithGoogle({ cookie })
    expect(res.headers.get('location')).toBe('/chat?auth=google')
    expect((await t.request('/api/user', { cookie })).status).toBe(401)
  })

  it.each([
    ['a tampered state', { alter: (u: URL) => u.searchParams.set('state', 'forged') }, 'state'],
    ['no flow cookie', { flowCookie: 'other=1' }, 'state'],
    ['a forged flow cookie', { flowCookie: `${FLOW_COOKIE}=eyJ9.c2ln` }, 'state'],
    ['denied consent', { behaviour: 'deny' as const }, 'denied'],
    ['a wrong nonce', { behaviour: 'wrong-nonce' as const }, 'verification'],
    ['an expired ID token', { behaviour: 'expired' as const }, 'verification'],
    ['a token for another audience', { behaviour: 'wrong-audience' as const }, 'verification'],
    ['a bad signature', { behaviour: 'bad-signature' as const }, 'verification'],
  ])('sends the person back to /chat with an error for %s', async (_name, opts, code) => {
    const g = googleUser()
    op.setNextUser(g)
    const { res, location } = await signInWithGoogle(opts)
    expect(res.status).toBe(302)
    expect(location).toBe(`/chat?auth_error=${code}`)
    expect(cookieOf(res, 'loris_session')).toBeUndefined()
    expect(await userBySub(g.sub)).toBeUndefined()
  })

  it('does not accept the same flow twice', async () => {
    op.setNextUser(googleUser())
    const { callback, start } = await signInWithGoogle()
    const replay = await t.request(`${callback.pathname}${callback.search}`, {
      cookie: cookieOf(start, FLOW_COOKIE),
    })
    // The code was single use at the provider; with the cookie kept, verification fails.
    expect(replay.headers.get('location')).toBe('/chat?auth_error=verification')
  })

  it('refuses a flow cookie older than ten minutes', async () => {
    const later = sibling({ now: () => new Date(Date.now() + 11 * 60_000) })
    op.setNextUser(googleUser())
    const start = await t.request('/auth/google')
    const authorized = await fetch(start.headers.get('location') ?? '', { redirect: 'manual' })
    const callback = new URL(authorized.headers.get('location') ?? '')
    const res = await later(`${callback.pathname}${callback.search}`, cookieOf(start, FLOW_COOKIE))
    expect(res.headers.get('location')).toBe('/chat?auth_error=state')
  })

  it('lets another app node finish a flow this one began (no server memory)', async () => {
    const otherNode = sibling()
    op.setNextUser(googleUser())
    const start = await t.request('/auth/google')
    const authorized = await fetch(start.headers.get('location') ?? '', { redirect: 'manual' })
    const callback = new URL(authorized.headers.get('location') ?? '')
    const res = await otherNode(`${callback.pathname}${callback.search}`, cookieOf(start, FLOW_COOKIE))
    expect(res.headers.get('location')).toBe('/chat?auth=google')
  })
})

describe('the page a sign-in returns to', () => {
  const share = `/share/${'s'.repeat(43)}`

  it('returns to the shared conversation it began on, signed in', async () => {
    const g = googleUser()
    op.setNextUser(g)
    const { res, location } = await signInWithGoogle({ next: share })
    expect(location).toBe(`${share}?auth=google`)
    const me = await (await t.request('/api/user', { cookie: sessionCookie(res) })).json()
    expect(me.googleId).toBe(g.sub)
  })

  it('returns there with the reason when the sign-in fails', async () => {
    op.setNextUser(googleUser())
    const { location } = await signInWithGoogle({ next: share, behaviour: 'deny' })
    expect(location).toBe(`${share}?auth_error=denied`)
    const bare = sibling({ env: { GOOGLE_CLIENT_ID: undefined, GOOGLE_CLIENT_SECRET: undefined } })
    const res = await bare(`/auth/google?next=${encodeURIComponent(share)}`)
    expect(res.headers.get('location')).toBe(`${share}?auth_error=not_configured`)
  })

  it.each([
    ['https://evil.example'],
    ['//evil.example'],
    ['/\\evil.example'],
    ['/account?x'],
    [`${'/share/'}${'s'.repeat(43)}?then=https://evil.example`],
  ])('never leaves for %s: the chat screen instead', async (next) => {
    op.setNextUser(googleUser())
    const { location } = await signInWithGoogle({ next })
    expect(location).toBe('/chat?auth=google')
    const bare = sibling({ env: { GOOGLE_CLIENT_ID: undefined, GOOGLE_CLIENT_SECRET: undefined } })
    const res = await bare(`/auth/google?${new URLSearchParams({ next })}`)
    expect(res.headers.get('location')).toBe('/chat?auth_error=not_configured')
  })

  it('keeps the return path in the signed flow cookie, where the browser cannot change it', async () => {
    op.setNextUser(googleUser())
    const start = await t.request(`/auth/google?next=${encodeURIComponent(share)}`)
    const sealed = cookieOf(start, FLOW_COOKIE)?.split('=')[1] ?? ''
    const [payload, mac] = sealed.split('.')
    const flow = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'))
    expect(flow.returnTo).toBe(share)
    const forged = Buffer.from(JSON.stringify({ ...flow, returnTo: '//evil.example' })).toString('base64url')
    const { location } = await signInWithGoogle({ flowCookie: `${FLOW_COOKIE}=${forged}.${mac}` })
    expect(location).toBe('/chat?auth_error=state')
  })
})

describe('unexpected failures', () => {
  it('still redirect to /chat with a message, never a JSON error', async () => {
    op.setNextUser(googleUser())
    const start = await t.request('/auth/google')
    const authorized = await fetch(start.headers.get('location') ?? '', { redirect: 'manual' })
    const callback = new URL(authorized.headers.get('location') ?? '')
    const broken = new Proxy(t.deps.database.db, {
      get: () => {
        throw new Error('database unreachable')
      },
    })
    const app = createApp({ ...t.deps, database: { ...t.deps.database, db: broken } })
    const res = await app.request(`${TEST_ORIGIN}${callback.pathname}${callback.search}`, {
      headers: { cookie: cookieOf(start, FLOW_COOKIE) ?? '' },
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/chat?auth_error=failed')
    expect(res.headers.get('cache-control')).toBe('no-store')
  })
})

describe('Google-linked accounts', () => {
  it('cannot change their e-mail', async () => {
    op.setNextUser(googleUser())
    const { res } = await signInWithGoogle()
    const update = await t.request('/api/user/update-email', {
      method: 'POST',
      cookie: sessionCookie(res),
      json: { email: 'another@example.com' },
    })
    expect(update.status).toBe(403)
  })
})
