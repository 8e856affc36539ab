import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  adminAuditResponse,
  adminLimitsResponse,
  adminUsageResponse,
  adminUsersResponse,
} from '#contract/admin.ts'
import { userSchema } from '#contract/user.ts'
import { mailerFor } from '#server/lib/mail/mailer.ts'
import { readOutbox } from '../../../../tests/helpers/mailbox.ts'
import { createTestApp, sessionCookie, type TestApp } from '../../../../tests/helpers/test-app.ts'

const OPERATOR = 'operator@example.com'

// Every /api/admin route with a body it accepts; each must refuse visitors and members alike.
const routes: Array<{ method: string; path: (id: string) => string; json?: unknown }> = [
  { method: 'GET', path: () => '/api/admin/users?q=example' },
  { method: 'POST', path: (id) => `/api/admin/users/${id}/suspend` },
  { method: 'POST', path: (id) => `/api/admin/users/${id}/restore` },
  { method: 'PUT', path: (id) => `/api/admin/users/${id}/role`, json: { operator: true } },
  { method: 'DELETE', path: (id) => `/api/admin/users/${id}`, json: { confirmEmail: 'x@example.com' } },
  { method: 'GET', path: () => '/api/admin/waitlist' },
  { method: 'GET', path: () => '/api/admin/waitlist?format=csv' },
  { method: 'POST', path: () => '/api/admin/waitlist/invite', json: { email: 'new@example.com' } },
  { method: 'GET', path: () => '/api/admin/usage?from=2026-01-01&to=2026-01-31&by=day' },
  { method: 'GET', path: () => '/api/admin/limits' },
  {
    method: 'PUT',
    path: () => '/api/admin/limits',
    json: {
      free: { charsPer30Days: 5, sendsPerMinute: 5, repliesAtOnce: 1 },
      premium: { charsPer30Days: 5, sendsPerMinute: 5, repliesAtOnce: 1 },
    },
  },
  { method: 'GET', path: () => '/api/admin/audit' },
  { method: 'GET', path: () => '/api/admin/audit?format=csv' },
]

describe('the operator console API', () => {
  let t: TestApp
  let operator: string
  let member: { cookie: string; id: string; email: string }

  const verify = (email: string) =>
    t.deps.database.db.execute(sql`update users set email_verified_at = now() where email = ${email}`)

  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: `  ${OPERATOR.toUpperCase()} , other@example.com` })
    const op = await t.signUp(OPERATOR)
    await verify(OPERATOR)
    operator = op.cookie
    const m = await t.signUp('member@example.com')
    member = { cookie: m.cookie, id: String(m.user.id), email: 'member@example.com' }
  })
  afterAll(() => t.close())

  it.each(routes.map((r) => ({ ...r, name: r.path(':id') })))(
    '$method $name answers 401 to a visitor and 403 to a member',
    async (route) => {
      const init = { method: route.method, json: route.json }
      const visitor = await t.request(route.path(member.id), init)
      expect(visitor.status).toBe(401)
      const refused = await t.request(route.path(member.id), { ...init, cookie: member.cookie })
      expect(refused.status).toBe(403)
      expect((await refused.json()).code).toBe('forbidden:admin')
    },
  )

  it('makes an operator of a listed address only once it is verified', async () => {
    const other = await t.signUp('other@example.com')
    expect(userSchema.parse(other.user).operator).toBe(false)
    expect((await t.request('/api/admin/limits', { cookie: other.cookie })).status).toBe(403)
    await verify('other@example.com')
    expect((await t.request('/api/admin/limits', { cookie: other.cookie })).status).toBe(200)
    const session = await (await t.request('/api/session', { cookie: other.cookie })).json()
    expect(session.user.operator).toBe(true)
  })

  it('finds people by e-mail, plan and dates, with their usage and never their messages', async () => {
    const res = await t.request('/api/admin/users?q=MEMBER%40', { cookie: operator })
    expect(res.status).toBe(200)
    const body = adminUsersResponse.parse(await res.json())
    expect(body.people.map((p) => p.email)).toEqual(['member@example.com'])
    const [person] = body.people
    expect(person).toMatchObject({ plan: 'free', threads: 1, operator: null, suspendedAt: null })
    expect(person?.lastActiveAt).not.toBeNull()
    expect(JSON.stringify(body)).not.toContain('content')

    const wildcard = adminUsersResponse.parse(
      await (await t.request('/api/admin/users?q=%25', { cookie: operator })).json(),
    )
    expect(wildcard.people).toEqual([])
    const premium = adminUsersResponse.parse(
      await (await t.request('/api/admin/users?plan=premium', { cookie: operator })).json(),
    )
    expect(premium.people).toEqual([])
    const future = adminUsersResponse.parse(
      await (await t.request('/api/admin/users?createdFrom=2999-01-01', { cookie: operator })).json(),
    )
    expect(future.people).toEqual([])
    const bad = await t.request('/api/admin/users?createdFrom=yesterday', { cookie: operator })
    expect(bad.status).toBe(400)
    expect((await bad.json()).message).toBe('Use a date written as YYYY-MM-DD')
  })

  it('pages through people by cursor', async () => {
    for (let i = 0; i < 3; i++) await t.signUp(`page${i}@example.com`)
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const path: string = `/api/admin/users?q=page${cursor ? `&cursor=${cursor}` : ''}`
      const body = adminUsersResponse.parse(await (await t.request(path, { cookie: operator })).json())
      seen.push(...body.people.map((p) => p.email))
      cursor = body.nextCursor
    } while (cursor)
    expect(seen).toEqual(['page2@example.com', 'page1@example.com', 'page0@example.com'])
    expect((await t.request('/api/admin/users?cursor=nonsense', { cookie: operator })).status).toBe(400)
  })

  it('suspends a person: their sessions end, sign-in is refused with a reason, restore lets them back', async () => {
    const person = await t.signUp('suspend-me@example.com', 'correct horse battery')
    const id = String(person.user.id)
    expect(
      (await t.request(`/api/admin/users/${id}/suspend`, { method: 'POST', cookie: operator })).status,
    ).toBe(200)
    expect((await t.request('/api/user', { cookie: person.cookie })).status).toBe(401)
    const login = await t.request('/api/login', {
      method: 'POST',
      json: { email: 'suspend-me@example.com', password: 'correct horse battery' },
    })
    expect(login.status).toBe(403)
    expect((await login.json()).message).toMatch(/suspended/)

    expect(
      (await t.request(`/api/admin/users/${id}/restore`, { method: 'POST', cookie: operator })).status,
    ).toBe(200)
    const back = await t.request('/api/login', {
      method: 'POST',
      json: { email: 'suspend-me@example.com', password: 'correct horse battery' },
    })
    expect(back.status).toBe(200)
    expect((await t.request('/api/user', { cookie: sessionCookie(back) })).status).toBe(200)
  })

  it('refuses actions on oneself and on unknown ids', async () => {
    const me = (await (await t.request('/api/user', { cookie: operator })).json()).id
    const self = await t.request(`/api/admin/users/${me}/suspend`, { method: 'POST', cookie: operator })
    expect(self.status).toBe(403)
    const unknown = await t.request('/api/admin/users/00000000-0000-4000-8000-000000000000/suspend', {
      method: 'POST',
      cookie: operator,
    })
    expect(unknown.status).toBe(404)
    const garbage = await t.request('/api/admin/users/../../suspend', { method: 'POST', cookie: operator })
    expect(garbage.status).toBe(404)
  })

  it('grants and removes the operator role, but not one the configuration gives', async () => {
    const grantee = await t.signUp('grantee@example.com')
    const id = String(grantee.user.id)
    const grant = await t.request(`/api/admin/users/${id}/role`, {
      method: 'PUT',
      cookie: operator,
      json: { operator: true },
    })
    expect(grant.status).toBe(200)
    expect((await t.request('/api/admin/limits', { cookie: grantee.cookie })).status).toBe(200)
    await t.request(`/api/admin/users/${id}/role`, {
      method: 'PUT',
      cookie: operator,
      json: { operator: false },
    })
    expect((await t.request('/api/admin/limits', { cookie: grantee.cookie })).status).toBe(403)

    const configured = await (await t.request('/api/admin/users?q=other%40', { cookie: operator })).json()
    const otherId = configured.people[0].id
    const removal = await t.request(`/api/admin/users/${otherId}/role`, {
      method: 'PUT',
      cookie: operator,
      json: { operator: false },
    })
    expect(removal.status).toBe(409)
  })

  it('deletes a person only with their address typed', async () => {
    const doomed = await t.signUp('doomed@example.com')
    const id = String(doomed.user.id)
    const wrong = await t.request(`/api/admin/users/${id}`, {
      method: 'DELETE',
      cookie: operator,
      json: { confirmEmail: 'someone@example.com' },
    })
    expect(wrong.status).toBe(400)
    const ok = await t.request(`/api/admin/users/${id}`, {
      method: 'DELETE',
      cookie: operator,
      json: { confirmEmail: 'doomed@example.com' },
    })
    expect(ok.status).toBe(200)
    expect((await t.request('/api/user', { cookie: doomed.cookie })).status).toBe(401)
  })

  it('invites a waitlisted address: the mail carries a single-use link that registers it', async () => {
    await t.request('/api/waitlist', { method: 'POST', json: { email: 'waiting@example.com' } })
    const list = await (await t.request('/api/admin/waitlist', { cookie: operator })).json()
    expect(list.entries).toEqual([
      expect.objectContaining({ email: 'waiting@example.com', invitedAt: null, registered: false }),
    ])
    const csv = await t.request('/api/admin/waitlist?format=csv', { cookie: operator })
    expect(csv.headers.get('content-type')).toContain('text/csv')
    expect(await csv.text()).toContain('waiting@example.com')

    const res = await t.request('/api/admin/waitlist/invite', {
      method: 'POST',
      cookie: operator,
      json: { email: 'waiting@example.com' },
    })
    expect(res.status).toBe(200)
    await mailerFor(t.deps).settled()
    const mail = readOutbox(t.deps.env.DATA_DIR).find((m) => m.subject === 'Your invitation to Loris')
    expect(mail?.to).toContain('waiting@example.com')
    const link = new URL(mail?.text.match(/https?:\/\/\S+/)?.[0] ?? '')
    expect(link.pathname).toBe('/auth')
    const invite = link.searchParams.get('invite') ?? ''

    const other = await t.request('/api/register', {
      method: 'POST',
      json: { email: 'intruder@example.com', password: 'correct horse battery', invite },
    })
    expect(other.status).toBe(403)
    const registered = await t.request('/api/register', {
      method: 'POST',
      json: { email: 'waiting@example.com', password: 'correct horse battery', invite },
    })
    expect(registered.status).toBe(201)
    expect((await registered.json()).emailVerified).toBe(true)
    const again = await t.request('/api/register', {
      method: 'POST',
      json: { email: 'waiting2@example.com', password: 'correct horse battery', invite },
    })
    expect(again.status).toBe(403)
    const after = await (await t.request('/api/admin/waitlist', { cookie: operator })).json()
    expect(after.entries[0]).toMatchObject({ registered: true })
    expect(after.entries[0].invitedAt).not.toBeNull()
  })

  it('reports usage and impact by day, model and plan, as JSON and CSV', async () => {
    const { db } = t.deps.database
    await db.execute(sql`
      insert into messages (user_id, content, response, status, chat_model, model_id, input_tokens,
        output_tokens, co2_impact, created_at, completed_at)
      select id, 'hello', 'world!', 'complete', 'gemini', 'gemini-2.5-pro', 10, 20,
        '{"actual":{"mid":1.5},"saved":{"mid":4},"energyWh":{"mid":2},"waterL":{"mid":0.01}}'::jsonb,
        '2026-03-02T10:00:00Z', '2026-03-02T10:00:05Z'
      from users where email = 'member@example.com'`)
    const day = adminUsageResponse.parse(
      await (
        await t.request('/api/admin/usage?from=2026-03-01&to=2026-03-31&by=day', { cookie: operator })
      ).json(),
    )
    expect(day.rows).toEqual([
      {
        key: '2026-03-02',
        replies: 1,
        inputTokens: 10,
        outputTokens: 20,
        inputChars: 5,
        outputChars: 6,
        co2Emitted: 1.5,
        co2Saved: 4,
        energyWh: 2,
        waterL: 0.01,
      },
    ])
    const model = adminUsageResponse.parse(
      await (
        await t.request('/api/admin/usage?from=2026-03-01&to=2026-03-31&by=model', { cookie: operator })
      ).json(),
    )
    expect(model.rows.map((r) => r.key)).toEqual(['gemini-2.5-pro'])
    const plan = adminUsageResponse.parse(
      await (
        await t.request('/api/admin/usage?from=2026-03-01&to=2026-03-31&by=plan', { cookie: operator })
      ).json(),
    )
    expect(plan.rows.map((r) => r.key)).toEqual(['free'])
    const csv = await t.request('/api/admin/usage?from=2026-03-01&to=2026-03-31&by=day&format=csv', {
      cookie: operator,
    })
    expect((await csv.text()).split('\r\n')[1]).toBe('2026-03-02,1,10,20,5,6,1.5,4,2,0.01')
    const reversed = await t.request('/api/admin/usage?from=2026-03-31&to=2026-03-01', { cookie: operator })
    expect(reversed.status).toBe(400)
  })

  it('stores plan limits with their defaults beside them, validated', async () => {
    const before = adminLimitsResponse.parse(
      await (await t.request('/api/admin/limits', { cookie: operator })).json(),
    )
    expect(before.free).toEqual(before.defaults.free)
    const bad = await t.request('/api/admin/limits', {
      method: 'PUT',
      cookie: operator,
      json: { ...before, free: { ...before.free, sendsPerMinute: 0 } },
    })
    expect(bad.status).toBe(400)
    expect((await bad.json()).message).toBe('Sends per minute must be at least 1')
    const next = { free: { ...before.free, repliesAtOnce: 1 }, premium: before.premium }
    expect(
      (await t.request('/api/admin/limits', { method: 'PUT', cookie: operator, json: next })).status,
    ).toBe(200)
    const after = adminLimitsResponse.parse(
      await (await t.request('/api/admin/limits', { cookie: operator })).json(),
    )
    expect(after.free.repliesAtOnce).toBe(1)
  })

  it('keeps every operator action in an append-only audit log', async () => {
    const body = adminAuditResponse.parse(
      await (await t.request('/api/admin/audit', { cookie: operator })).json(),
    )
    const actions = body.entries.map((e) => `${e.action} ${e.target}`)
    expect(actions).toEqual(
      expect.arrayContaining([
        'suspend suspend-me@example.com',
        'restore suspend-me@example.com',
        'grant-operator grantee@example.com',
        'delete doomed@example.com',
        'invite waiting@example.com',
        'limits plan limits',
      ]),
    )
    expect(body.entries.every((e) => e.actorEmail === OPERATOR)).toBe(true)
    const refusal = (statement: Promise<unknown>) =>
      statement.then(
        () => 'allowed',
        (err: Error & { cause?: Error }) => err.cause?.message ?? err.message,
      )
    expect(await refusal(t.deps.database.db.execute(sql`delete from admin_audit`))).toMatch(/append-only/)
    expect(await refusal(t.deps.database.db.execute(sql`update admin_audit set target = 'x'`))).toMatch(
      /append-only/,
    )
  })
})

describe('invite-only sign-up', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ SIGNUP: 'invite' })
  })
  afterAll(() => t.close())

  it('refuses registering without an invitation, with the way in', async () => {
    const res = await t.request('/api/register', {
      method: 'POST',
      json: { email: 'walk-in@example.com', password: 'correct horse battery' },
    })
    expect(res.status).toBe(403)
    expect((await res.json()).message).toMatch(/Join the waitlist/)
  })
})
