import { eq } from 'drizzle-orm'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { uploads, users } from '#server/db/schema/index.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { AppEnv } from '#server/lib/context.ts'
import { toErrorResponse } from '#server/lib/on-error.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { type AccountHooks, accountRoutes } from './routes.ts'

// The deletion hooks other features plug in from app.ts, exercised on a bare sub-app.
let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

function appWith(hooks: AccountHooks) {
  const app = new Hono<AppEnv>()
  app.use(async (c, next) => {
    c.set('log', t.deps.log)
    await next()
  })
  app.route('/api', accountRoutes(t.deps, hooks))
  app.onError(toErrorResponse)
  return (cookie: string) =>
    app.request(`${TEST_ORIGIN}/api/delete-account`, { method: 'POST', headers: { cookie } })
}

const exists = async (id: string) =>
  (await t.deps.database.db.select().from(users).where(eq(users.id, id))).length === 1

describe('account deletion hooks', () => {
  it('keeps the account when a beforeDelete hook refuses', async () => {
    const { cookie, user } = await t.signUp()
    const del = appWith({
      beforeDelete: [
        async () => {
          throw new AppError('bad_gateway:payments', 'Subscription could not be cancelled')
        },
      ],
    })
    const res = await del(cookie)
    expect(res.status).toBe(502)
    expect(await res.json()).toMatchObject({ error: 'Subscription could not be cancelled' })
    expect(await exists(user.id as string)).toBe(true)
    expect((await t.request('/api/user', { cookie })).status).toBe(200)
  })

  it('gives beforeDelete the user and afterDelete the storage keys, and survives a failing afterDelete', async () => {
    const { cookie, user } = await t.signUp()
    const id = user.id as string
    const key = 'b'.repeat(64)
    const file = { userId: id, storageKey: key, mimeType: 'text/plain', kind: 'document' as const, size: 1 }
    await t.deps.database.db.insert(uploads).values([
      { ...file, fileName: 'a.txt' },
      { ...file, fileName: 'copy-of-a.txt' },
    ])
    const seen: unknown[] = []
    const del = appWith({
      beforeDelete: [async (_deps, u) => seen.push(['before', u.id])],
      afterDelete: [
        async () => {
          throw new Error('disk full')
        },
        async (_deps, deleted) => seen.push(['after', deleted]),
      ],
    })
    const res = await del(cookie)
    expect(res.status).toBe(200)
    expect(seen).toEqual([
      ['before', id],
      ['after', { userId: id, storageKeys: [key] }],
    ])
    expect(await exists(id)).toBe(false)
  })
})
