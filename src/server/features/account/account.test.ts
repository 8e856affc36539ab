import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { messages, sessions, threads, uploads, users } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const updateEmail = (cookie: string, email: unknown) =>
  t.request('/api/user/update-email', { method: 'POST', cookie, json: { email } })

describe('POST /api/user/update-email', () => {
  it('changes the e-mail (trimmed, lower-cased) and answers the updated user', async () => {
    const { cookie, user } = await t.signUp()
    const res = await updateEmail(cookie, '  Renamed.Person@Example.COM ')
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toMatchObject({ id: user.id, email: 'renamed.person@example.com' })
    const me = await (await t.request('/api/user', { cookie })).json()
    expect(me.email).toBe('renamed.person@example.com')
    // The new address signs in; the old one no longer does.
    const login = (email: string) =>
      t.request('/api/login', { method: 'POST', json: { email, password: 'correct horse battery' } })
    expect((await login('renamed.person@example.com')).status).toBe(200)
    expect((await login(user.email as string)).status).toBe(401)
  })

  it('refuses an invalid address with the spec message', async () => {
    const { cookie } = await t.signUp()
    for (const email of ['not-an-email', 'a@b', 'two@@example.com']) {
      const res = await updateEmail(cookie, email)
      expect(res.status, email).toBe(400)
      expect((await res.json()).error).toBe('Please enter a valid email address')
    }
    for (const email of ['', 42, null]) expect((await updateEmail(cookie, email)).status).toBe(400)
  })

  it('refuses an address another account uses with 409', async () => {
    await t.signUp('already.here@example.com')
    const { cookie, user } = await t.signUp()
    const res = await updateEmail(cookie, 'Already.Here@example.com')
    expect(res.status).toBe(409)
    expect(await res.json()).toMatchObject({
      code: 'conflict:email',
      error: 'Another account already uses this e-mail address',
    })
    const [row] = await t.deps.database.db
      .select()
      .from(users)
      .where(eq(users.id, user.id as string))
    expect(row?.email).toBe(user.email)
  })

  it('answers the unchanged user when the address is the current one', async () => {
    const { cookie, user } = await t.signUp()
    const res = await updateEmail(cookie, (user.email as string).toUpperCase())
    expect(res.status).toBe(200)
    expect((await res.json()).email).toBe(user.email)
  })

  it('refuses an account linked to Google with 403', async () => {
    const { cookie, user } = await t.signUp()
    await t.deps.database.db
      .update(users)
      .set({ googleId: 'google-sub-1' })
      .where(eq(users.id, user.id as string))
    const res = await updateEmail(cookie, 'elsewhere@example.com')
    expect(res.status).toBe(403)
    expect((await res.json()).code).toBe('forbidden:google_email')
  })

  it('answers 401 without a session', async () => {
    const res = await t.request('/api/user/update-email', {
      method: 'POST',
      json: { email: 'x@example.com' },
    })
    expect(res.status).toBe(401)
  })
})

async function seedData(userId: string) {
  const { db } = t.deps.database
  const [thread] = await db.insert(threads).values({ userId, title: 'Trip plans' }).returning()
  const [upload] = await db
    .insert(uploads)
    .values({
      userId,
      storageKey: 'a'.repeat(64),
      mimeType: 'image/png',
      kind: 'image',
      fileName: 'map.png',
      size: 10,
    })
    .returning()
  await db.insert(messages).values({
    userId,
    threadId: thread?.id,
    content: 'Where should we go?',
    response: 'Somewhere green.',
    chatModel: 'loris',
    status: 'complete',
    uploadId: upload?.id,
  })
  await db
    .update(users)
    .set({ co2Saved: 12.5, treesPlanted: 3, aiInputChars: 500 })
    .where(eq(users.id, userId))
}

async function rowsOf(userId: string) {
  const { db } = t.deps.database
  const count = async (table: typeof threads | typeof messages | typeof uploads | typeof sessions) =>
    (await db.select().from(table).where(eq(table.userId, userId))).length
  return {
    users: (await db.select().from(users).where(eq(users.id, userId))).length,
    sessions: await count(sessions),
    threads: await count(threads),
    messages: await count(messages),
    uploads: await count(uploads),
  }
}

describe('POST /api/delete-account', () => {
  it('deletes the user and all their data, ends the session, and a second call answers 401', async () => {
    const { cookie, user } = await t.signUp()
    const other = await t.signUp()
    await seedData(user.id as string)
    await seedData(other.user.id as string)
    expect(await rowsOf(user.id as string)).toEqual({
      users: 1,
      sessions: 1,
      threads: 2,
      messages: 1,
      uploads: 1,
    })

    const res = await t.request('/api/delete-account', { method: 'POST', cookie, json: {} })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ ok: true })
    // The browser's session cookie is cleared.
    expect(res.headers.getSetCookie().some((c) => /^loris_session=;/.test(c))).toBe(true)
    expect(await rowsOf(user.id as string)).toEqual({
      users: 0,
      sessions: 0,
      threads: 0,
      messages: 0,
      uploads: 0,
    })
    // Nobody else's data is touched.
    expect(await rowsOf(other.user.id as string)).toMatchObject({ users: 1, threads: 2, messages: 1 })

    expect((await t.request('/api/delete-account', { method: 'POST', cookie, json: {} })).status).toBe(401)
    expect((await t.request('/api/user', { cookie })).status).toBe(401)
    const login = await t.request('/api/login', {
      method: 'POST',
      json: { email: user.email, password: 'correct horse battery' },
    })
    expect(login.status).toBe(401)
  })

  it('signs out every device of the deleted user', async () => {
    const { cookie, user } = await t.signUp()
    const second = await t.request('/api/login', {
      method: 'POST',
      json: { email: user.email, password: 'correct horse battery' },
    })
    const otherDevice = second.headers.getSetCookie()[0]?.split(';')[0] ?? ''
    expect((await t.request('/api/user', { cookie: otherDevice })).status).toBe(200)
    await t.request('/api/delete-account', { method: 'POST', cookie, json: {} })
    expect((await t.request('/api/user', { cookie: otherDevice })).status).toBe(401)
  })

  it('lets the same e-mail sign up again as a fresh account', async () => {
    const { cookie, user } = await t.signUp()
    await seedData(user.id as string)
    await t.request('/api/delete-account', { method: 'POST', cookie, json: {} })
    const again = await t.signUp(user.email as string)
    expect(again.user.id).not.toBe(user.id)
    expect(again.user).toMatchObject({ treesPlanted: 0, co2Saved: 0, aiInputChars: 0 })
    expect(await rowsOf(again.user.id as string)).toMatchObject({ threads: 1, messages: 0, uploads: 0 })
  })

  it('answers 401 without a session', async () => {
    expect((await t.request('/api/delete-account', { method: 'POST', json: {} })).status).toBe(401)
  })
})
