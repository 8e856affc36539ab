// The session lookup every signed-in request makes is one statement, built once per database
// (counted: no SQL is built for it after the first request), and it still refuses a session that
// has expired or was ended.
import { PgDialect } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { sessions } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts'

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
