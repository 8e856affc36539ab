// The security notices' outbox (decision 043): the notice commits with the change, survives a
// mail server that is down or a process that dies before sending, is sent once by any node, and
// is given up only after repeated failures.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { securityNotices, users } from '#server/db/schema/index.ts'
import { parseEnv } from '#server/env.ts'
import type { AppDeps } from '#server/lib/context.ts'
import { linkIn, readOutbox } from '../../../../tests/helpers/mailbox.ts'
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { mailerFor } from './mailer.ts'
import {
  MAX_ATTEMPTS,
  queueSecurityNotice,
  sendDueSecurityNotices,
  startSecurityNoticeSender,
} from './security-notices.ts'

// Nothing listens on port 1: every SMTP send fails at once, as with a mail server down.
const MAIL_DOWN = 'smtp://127.0.0.1:1'

let t: TestApp
let dataDir: string
/** The same database and secret as `t`, on a node whose mail works (writes the outbox). */
let working: AppDeps
beforeEach(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'loris-notices-'))
  t = await createTestApp({ DATA_DIR: dataDir, SMTP_URL: MAIL_DOWN })
  working = {
    ...t.deps,
    env: parseEnv({ NODE_ENV: 'test', PUBLIC_URL: TEST_ORIGIN, DATA_DIR: dataDir, ECO_ENGINE: 'off' }),
  }
})
afterEach(async () => {
  await mailerFor(working).settled()
  await t.close()
  rmSync(dataDir, { recursive: true, force: true })
})

let n = 0
const unique = (tag: string) => `${tag}-${++n}-${Date.now()}@example.com`
const db = () => t.deps.database.db
const rows = () => db().select().from(securityNotices)

/** A signed-in owner whose address is confirmed (its confirmation mail could not be sent). */
async function confirmedOwner() {
  const owner = unique('owner')
  const { cookie, user } = await t.signUp(owner)
  await db().update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.email, owner))
  return { owner, cookie, userId: user.id as string }
}

const changeEmail = (cookie: string, email: string) =>
  t.request('/api/user/update-email', { method: 'POST', cookie, json: { email } })

describe('security notices', () => {
  it('a notice the mail server refused stays in the outbox, and a working node sends it with a link that works', async () => {
    const { owner, cookie } = await confirmedOwner()
    const thief = unique('thief')
    expect((await changeEmail(cookie, thief)).status).toBe(200)
    await mailerFor(t.deps).settled()
    const [kept] = await rows()
    expect(kept).toMatchObject({ kind: 'email-changed', toEmail: owner, newEmail: thief, attempts: 1 })
    expect(readOutbox(dataDir)).toEqual([])

    // Not before its retry time: another node leaves it alone.
    expect(await sendDueSecurityNotices(working)).toBe(0)
    await db().update(securityNotices).set({ notBefore: sql`now()` })
    expect(await sendDueSecurityNotices(working)).toBe(1)
    expect(await rows()).toEqual([])
    const [notice] = readOutbox(dataDir)
    expect(notice).toMatchObject({ to: owner, subject: 'Your Loris e-mail address was changed' })
    const token = linkIn(notice as NonNullable<typeof notice>, '/reset-password').searchParams.get('token')
    const back = await t.request('/api/reset-password', {
      method: 'POST',
      json: { token, password: 'the owner again, safely' },
    })
    expect(back.status).toBe(200)
    expect((await db().select().from(users).where(eq(users.email, owner))).length).toBe(1)
  })

  it('a notice whose process died before sending it goes out when a node starts', async () => {
    const { owner, userId } = await confirmedOwner()
    // What the change's transaction committed; the process then died (nothing was attempted).
    await queueSecurityNotice(db(), {
      kind: 'email-changed',
      userId,
      toEmail: owner,
      newEmail: unique('new'),
    })
    const job = startSecurityNoticeSender(working)
    await job.stop() // waits for the run at start
    expect(await rows()).toEqual([])
    expect(readOutbox(dataDir).map((m) => m.to)).toEqual([owner])
  })

  it('twenty senders at once send each notice once', async () => {
    const owners = await Promise.all(Array.from({ length: 5 }, () => confirmedOwner()))
    for (const { owner, userId } of owners)
      await queueSecurityNotice(db(), { kind: 'password-changed', userId, toEmail: owner })
    const sent = await Promise.all(Array.from({ length: 20 }, () => sendDueSecurityNotices(working)))
    expect(sent.reduce((a, b) => a + b, 0)).toBe(5)
    expect(
      readOutbox(dataDir)
        .map((m) => m.to)
        .sort(),
    ).toEqual(owners.map((o) => o.owner).sort())
    expect(await rows()).toEqual([])
  })

  it('a failed send waits longer each time, and is given up after the last attempt', async () => {
    const { owner, userId } = await confirmedOwner()
    await queueSecurityNotice(db(), { kind: 'password-changed', userId, toEmail: owner })
    expect(await sendDueSecurityNotices(t.deps)).toBe(0)
    const [first] = await rows()
    expect(first?.attempts).toBe(1)
    const [wait] = await db()
      .select({ s: sql<number>`extract(epoch from ${securityNotices.notBefore} - now())::float` })
      .from(securityNotices)
    expect(wait?.s).toBeGreaterThan(50)

    await db()
      .update(securityNotices)
      .set({ notBefore: sql`now()`, attempts: MAX_ATTEMPTS - 1 })
    expect(await sendDueSecurityNotices(t.deps)).toBe(0)
    expect(await rows()).toEqual([])
  })

  it('commits only with the change: none for a refused change or an address never confirmed', async () => {
    const { cookie } = await confirmedOwner()
    const taken = await t.signUp(unique('taken'))
    expect((await changeEmail(cookie, taken.user.email as string)).status).toBe(409)
    const unconfirmed = await t.signUp(unique('typo'))
    expect((await changeEmail(unconfirmed.cookie, unique('fixed'))).status).toBe(200)
    await mailerFor(t.deps).settled()
    expect(await rows()).toEqual([])
  })

  it('costs an idle server one statement a minute and no transaction', async () => {
    const transactions = vi.spyOn(db(), 'transaction')
    t.queries.length = 0
    expect(await sendDueSecurityNotices(working)).toBe(0)
    expect(t.queries.filter((q) => !/^\s*(begin|commit)\b/i.test(q))).toHaveLength(1)
    expect(transactions).not.toHaveBeenCalled()
  })

  it('goes with the account when it is deleted before it could be sent', async () => {
    const { owner, cookie, userId } = await confirmedOwner()
    await queueSecurityNotice(db(), { kind: 'password-changed', userId, toEmail: owner })
    expect((await t.request('/api/delete-account', { method: 'POST', cookie })).status).toBe(200)
    expect(await rows()).toEqual([])
  })
})
