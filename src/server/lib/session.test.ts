// The session lookup every signed-in request makes is one statement, built once per database
// (counted: no SQL is built for it after the first request), and it still refuses a session that
// has expired or was ended. However often it is used, a session ends 90 days after its sign-in.
import { eq } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { sessions } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts'
import { SESSION_MAX_DAYS } from './session.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

it('looks the session up with one statement built once', async () => {
  const { cookie } = await t.signUp()
  expect((await t.request('/api/user', { cookie })).status).toBe(200)
  const built = vi.spyOn(PgDialect.prototype, 'sqlToQuery')
  try {
    t.queries.length = 0
    for (let i = 0; i < 3; i++) expect((await t.request('/api/user', { cookie })).status).toBe(200)
    expect(t.queries).toHaveLength(3)
    expect(built).not.toHaveBeenCalled()
  } finally {
    built.mockRestore()
  }
})

it('refuses an expired or ended session', async () => {
  const { cookie } = await t.signUp()
  await t.deps.database.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) })
  expect((await t.request('/api/user', { cookie })).status).toBe(401)
  const other = await t.signUp()
  expect((await t.request('/api/user', { cookie: other.cookie })).status).toBe(200)
  await t.deps.database.db.delete(sessions)
  expect((await t.request('/api/user', { cookie: other.cookie })).status).toBe(401)
})

it('extends a session in use, but never past 90 days from its sign-in', async () => {
  const { cookie, user } = await t.signUp()
  const day = 86_400_000
  const mine = eq(sessions.userId, user.id as string)
  const createdAt = new Date(Date.now() - (SESSION_MAX_DAYS - 5) * day)
  // Used since its sign-in 85 days ago, it has slid to an end an hour away: this request extends it.
  await t.deps.database.db
    .update(sessions)
    .set({ createdAt, expiresAt: new Date(Date.now() + 3_600_000) })
    .where(mine)
  const res = await t.request('/api/user', { cookie })
  expect(res.status).toBe(200)
  const [row] = await t.deps.database.db.select().from(sessions).where(mine)
  const lastDay = createdAt.getTime() + SESSION_MAX_DAYS * day
  expect(row?.expiresAt.getTime()).toBe(lastDay)
  expect(Date.parse(/expires=([^;]+)/i.exec(res.headers.get('set-cookie') ?? '')?.[1] ?? '')).toBe(
    Math.floor(lastDay / 1000) * 1000,
  )
  // At its cap, the next requests write nothing (no extension is due any more).
  t.queries.length = 0
  expect((await t.request('/api/user', { cookie })).status).toBe(200)
  expect(t.queries).toHaveLength(1)
  // Past the cap it has ended, however recently it was used.
  await t.deps.database.db
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(mine)
  expect((await t.request('/api/user', { cookie })).status).toBe(401)
})
