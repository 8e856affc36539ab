import { mkdirSync, mkdtempSync } from 'node:fs'
import { readdir, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { uploads } from '#server/db/schema/index.ts'
import { accountRoutes } from '#server/features/account/routes.ts'
import type { AppEnv } from '#server/lib/context.ts'
import { toErrorResponse } from '#server/lib/on-error.ts'
import { createDiskStorage, type ObjectStorage } from '#server/lib/storage.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { uploadsStorage } from './attachments.ts'
import { sweepUnnamedObjects, sweepUnnamedObjectsIfDue } from './unnamed-objects.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const db = () => t.deps.database.db
const HOURS_AGO = new Date(Date.now() - 3 * 60 * 60_000)
const objectPath = (dir: string, key: string) => join(dir, key.slice(0, 2), key)
/** As if written hours ago, past the grace (decision 042). */
const age = (path: string) => utimes(path, HOURS_AGO, HOURS_AGO)
const bytesOf = (text: string) => new TextEncoder().encode(`${text} ${crypto.randomUUID()}`)
const stored = async (dir: string) =>
  (await Promise.all((await readdir(dir)).map((fan) => readdir(join(dir, fan))))).flat()

async function uploadOf(userId: string, storageKey: string) {
  await db()
    .insert(uploads)
    .values({ userId, storageKey, mimeType: 'text/plain', kind: 'document', fileName: 'f.txt', size: 1 })
}

/** Account deletion with the files' removal failing after the rows are gone (only logged). */
function deleteAccountWithFailingCleanup(cookie: string) {
  const app = new Hono<AppEnv>()
  app.use(async (c, next) => {
    c.set('log', t.deps.log)
    await next()
  })
  app.route(
    '/api',
    accountRoutes(t.deps, {
      afterDelete: [
        async () => {
          throw new Error('disk unavailable')
        },
      ],
    }),
  )
  app.onError(toErrorResponse)
  return app.request(`${TEST_ORIGIN}/api/delete-account`, { method: 'POST', headers: { cookie } })
}

describe('the sweep of stored files no upload names', () => {
  it("removes a deleted account's file its cleanup left; keeps named, fresh and foreign files", async () => {
    const dir = join(t.deps.env.DATA_DIR, 'uploads')
    const storage = uploadsStorage(t.deps.env)
    const gone = await t.signUp()
    const goneKey = await storage.put(bytesOf('the deleted person wrote this'))
    await uploadOf(gone.user.id as string, goneKey)
    const keeper = await t.signUp()
    const namedKey = await storage.put(bytesOf('still named'))
    await uploadOf(keeper.user.id as string, namedKey)
    // A put whose row is not inserted yet, as far as anyone can tell.
    const freshKey = await storage.put(bytesOf('just written'))

    const res = await deleteAccountWithFailingCleanup(gone.cookie)
    expect(res.status).toBe(200)
    expect(await db().select().from(uploads).where(eq(uploads.storageKey, goneKey))).toHaveLength(0)
    // Left behind: nothing names it, and no deletion will come back for it.
    expect(await stored(dir)).toContain(goneKey)

    await age(objectPath(dir, goneKey))
    await age(objectPath(dir, namedKey))
    // A write cut short hours ago, and one that may be under way.
    const fan = join(dir, freshKey.slice(0, 2))
    await writeFile(join(fan, `${freshKey}.0123456789ab.part`), 'x')
    await age(join(fan, `${freshKey}.0123456789ab.part`))
    await writeFile(join(fan, `${freshKey}.ba9876543210.part`), 'x')
    // Elsewhere in DATA_DIR (the eco model's folder): never the sweep's.
    mkdirSync(join(t.deps.env.DATA_DIR, 'models'), { recursive: true })
    const model = join(t.deps.env.DATA_DIR, 'models', 'model.gguf')
    await writeFile(model, 'weights')
    await age(model)

    const result = await sweepUnnamedObjects({ db: db(), storage, log: t.deps.log })
    expect(result.removed).toBe(1)
    const left = await stored(dir)
    expect(left).not.toContain(goneKey)
    expect(left).toEqual(expect.arrayContaining([namedKey, freshKey, `${freshKey}.ba9876543210.part`]))
    expect(left).not.toContain(`${freshKey}.0123456789ab.part`)
    expect(await readdir(join(t.deps.env.DATA_DIR, 'models'))).toEqual(['model.gguf'])
  })

  it('two sweeps at once, checking a few keys per statement, remove each unnamed object once', async () => {
    const dir = mkdtempSync(join(t.deps.env.DATA_DIR, 'uploads-'))
    const storage: ObjectStorage = createDiskStorage(dir)
    const { user } = await t.signUp()
    const unnamed: string[] = []
    const named: string[] = []
    for (let i = 0; i < 7; i++) unnamed.push(await storage.put(bytesOf(`unnamed ${i}`)))
    for (let i = 0; i < 3; i++) {
      const key = await storage.put(bytesOf(`named ${i}`))
      await uploadOf(user.id as string, key)
      named.push(key)
    }
    for (const key of [...unnamed, ...named]) await age(objectPath(dir, key))

    t.queries.length = 0
    const d = { db: db(), storage, log: t.deps.log }
    const [a, b] = await Promise.all([
      sweepUnnamedObjects(d, { batch: 4 }),
      sweepUnnamedObjects(d, { batch: 4 }),
    ])
    expect(a.removed + b.removed).toBe(7)
    expect((await stored(dir)).sort()).toEqual([...named].sort())
    // The table is asked about at most 4 keys at a time: 10 objects, 3 statements a sweep at most.
    const checks = t.queries.filter((q) => /from "uploads"/.test(q))
    expect(checks.length).toBeGreaterThanOrEqual(2)
    expect(checks.length).toBeLessThanOrEqual(6)
  })

  it('the hourly run sweeps on one node an hour: a second run within it skips', async () => {
    const d = { db: db(), storage: uploadsStorage(t.deps.env), log: t.deps.log }
    expect(await sweepUnnamedObjectsIfDue(d)).toMatchObject({ removed: 0 })
    expect(await sweepUnnamedObjectsIfDue(d)).toBeNull()
  })
})
