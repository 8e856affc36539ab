// Account security (decision 010): verification, reset, pre-hijacking, throttling without lockout, and the
// notices, through the real app and the real mailer writing to a per-file outbox.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sessions, users } from '#server/db/schema/index.ts'
import { MAIL_PER_ADDRESS, mailerFor } from '#server/lib/mail/mailer.ts'
import { latestMailTo, linkIn, readOutbox } from '../../../../tests/helpers/mailbox.ts'
import { createTestApp, sessionCookie, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { googleEnv, type OidcStandIn, startOidcStandIn } from '../../../../tests/stand-ins/oidc.ts'
import { FLOW_COOKIE } from '../google-auth/flow-cookie.ts'

let t: TestApp
let op: OidcStandIn
let dataDir: string
beforeAll(async () => {
  op = await startOidcStandIn()
  dataDir = mkdtempSync(path.join(tmpdir(), 'loris-accsec-'))
  t = await createTestApp({
    DATA_DIR: dataDir,
    ...googleEnv(op),
  })
})
afterAll(async () => {
  await t?.close()
  await op?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

const password = 'correct horse battery'
let n = 0
const unique = (tag: string) => `${tag}-${++n}-${Date.now()}@example.com`

async function mailTo(to: string, subject: RegExp) {
  await mailerFor(t.deps).settled()
  const mail = latestMailTo(dataDir, to, subject)
  if (!mail) throw new Error(`no mail to ${to} matching ${subject}`)
  return mail
}

const tokenOf = (url: URL) => url.searchParams.get('token') ?? ''
const login = (email: string, pw: string, headers: Record<string, string> = {}) =>
  t.request('/api/login', { method: 'POST', json: { email, password: pw }, headers })
const me = async (cookie: string) => t.request('/api/user', { cookie })
/** Confirms `email` through the link mailed to it. */
const confirmByMail = async (email: string) =>
  t.request('/api/verify-email', {
    method: 'POST',
    json: { token: tokenOf(linkIn(await mailTo(email, /Confirm/), '/verify-email')) },
  })
const updateEmail = (cookie: string, email: string) =>
  t.request('/api/user/update-email', { method: 'POST', cookie, json: { email } })
const deviceCookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith('loris_device='))
    ?.split(';')[0] ?? ''

async function signInWithGoogle(user: { sub: string; email: string; email_verified: boolean }) {
  op.setNextUser({ ...user, name: 'G' })
  const start = await t.request('/auth/google')
  const flow = start.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${FLOW_COOKIE}=`))
    ?.split(';')[0]
  const authorized = await fetch(start.headers.get('location') ?? '', { redirect: 'manual' })
  const callback = new URL(authorized.headers.get('location') ?? '')
  const res = await t.request(`${callback.pathname}${callback.search}`, { cookie: flow })
  expect(res.headers.get('location')).toBe('/chat?auth=google')
  return res
}

describe('e-mail verification', () => {
  it('registration signs in, is unverified, and mails a single-use link that verifies', async () => {
    const email = unique('verify')
    const { cookie, user } = await t.signUp(email)
    expect(user.emailVerified).toBe(false)
    const mail = await mailTo(email, /Confirm your e-mail/)
    const link = linkIn(mail, '/verify-email')
    expect(link.origin).toBe('http://localhost:5000')
    // Only a hash of the token is stored.
    const stored = await t.deps.database.db.execute('select id from account_tokens')
    expect(JSON.stringify(stored)).not.toContain(tokenOf(link))

    const first = await t.request('/api/verify-email', { method: 'POST', json: { token: tokenOf(link) } })
    expect(first.status).toBe(200)
    expect((await (await me(cookie)).json()).emailVerified).toBe(true)
    const again = await t.request('/api/verify-email', { method: 'POST', json: { token: tokenOf(link) } })
    expect(again.status).toBe(400)
    expect(await again.json()).toMatchObject({ code: 'bad_request:token' })
  })

  it('refuses an expired link, and "resend" mails a new one that supersedes the old', async () => {
    const email = unique('resend')
    const { cookie, user } = await t.signUp(email)
    const old = tokenOf(linkIn(await mailTo(email, /Confirm/), '/verify-email'))
    const resend = await t.request('/api/verify-email/resend', { method: 'POST', cookie })
    expect(resend.status).toBe(200)
    await mailerFor(t.deps).settled()
    const mails = readOutbox(dataDir).filter((m) => m.to.includes(email) && /Confirm/.test(m.subject))
    expect(mails).toHaveLength(2)
    const fresh = tokenOf(linkIn(mails[1] as never, '/verify-email'))
    expect(fresh).not.toBe(old)
    expect((await t.request('/api/verify-email', { method: 'POST', json: { token: old } })).status).toBe(400)
    await t.deps.database.db.execute(
      `update account_tokens set expires_at = now() - interval '1 second' where user_id = '${user.id}'`,
    )
    expect((await t.request('/api/verify-email', { method: 'POST', json: { token: fresh } })).status).toBe(
      400,
    )
    expect((await (await me(cookie)).json()).emailVerified).toBe(false)
  })

  it('answers 400 for a malformed token and 401 for resend without a session', async () => {
    const bad = await t.request('/api/verify-email', { method: 'POST', json: { token: 'x' } })
    expect(bad.status).toBe(400)
    expect((await t.request('/api/verify-email/resend', { method: 'POST' })).status).toBe(401)
  })
})

describe('changing the e-mail', () => {
  it('leaves the new address unverified until its link is opened, and notifies the old one', async () => {
    const oldEmail = unique('before')
    const { cookie } = await t.signUp(oldEmail)
    await confirmByMail(oldEmail)
    const newEmail = unique('after')
    const res = await updateEmail(cookie, newEmail)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ email: newEmail, emailVerified: false })
    const notice = await mailTo(oldEmail, /e-mail address was changed/)
    expect(notice.text).toContain(newEmail)
    const link = linkIn(await mailTo(newEmail, /Confirm/), '/verify-email')
    expect(
      (await t.request('/api/verify-email', { method: 'POST', json: { token: tokenOf(link) } })).status,
    ).toBe(200)
    expect((await (await me(cookie)).json()).emailVerified).toBe(true)
  })
})

describe('taking the account back after someone changed its address', () => {
  /** An owner who confirmed their address through the mailed link, signed in. */
  async function confirmedOwner() {
    const owner = unique('owner')
    const { cookie } = await t.signUp(owner)
    await confirmByMail(owner)
    return { owner, cookie }
  }

  /** A confirmed owner, and someone else holding their session who changes the address. */
  async function takenOver() {
    const { owner, cookie } = await confirmedOwner()
    const thief = unique('thief')
    const changed = await updateEmail(cookie, thief)
    expect(changed.status).toBe(200)
    return { owner, thief, cookie }
  }

  it("the notice's link restores the address, sets a new password and signs every device out", async () => {
    const { owner, thief, cookie } = await takenOver()
    const notice = await mailTo(owner, /e-mail address was changed/)
    // The notice carries its own link back: "Forgot password?" with this address would find no
    // account, the address having moved.
    const link = linkIn(notice, '/reset-password')
    const res = await t.request('/api/reset-password', {
      method: 'POST',
      json: { token: tokenOf(link), password: 'the owner again, safely' },
    })
    expect(res.status).toBe(200)
    expect((await me(cookie)).status).toBe(401)
    const back = await login(owner, 'the owner again, safely')
    expect(back.status).toBe(200)
    expect(await back.json()).toMatchObject({ email: owner, emailVerified: true })
    expect((await login(thief, 'the owner again, safely')).status).toBe(401)
    // Once.
    const again = await t.request('/api/reset-password', {
      method: 'POST',
      json: { token: tokenOf(link), password: 'another new password' },
    })
    expect(again.status).toBe(400)
  })

  it("reaches the owner even when strangers spent the address's mail budget", async () => {
    const { owner, cookie } = await confirmedOwner()
    // Anyone can spend it, with "Forgot password?" over a few hours; here at once.
    const mailer = mailerFor(t.deps)
    for (let i = 0; i < MAIL_PER_ADDRESS.day; i++)
      mailer.send({ to: owner, subject: `Filler ${i}`, text: 'x', kind: 'filler' })
    await mailer.settled()
    const changed = await updateEmail(cookie, unique('thief'))
    expect(changed.status).toBe(200)
    await mailTo(owner, /e-mail address was changed/)
  })

  it('a password reset through the new address does not take the link away', async () => {
    const { owner, thief } = await takenOver()
    const notice = await mailTo(owner, /e-mail address was changed/)
    await t.request('/api/forgot-password', { method: 'POST', json: { email: thief } })
    const reset = linkIn(await mailTo(thief, /Reset your Loris password/), '/reset-password')
    expect(
      (
        await t.request('/api/reset-password', {
          method: 'POST',
          json: { token: tokenOf(reset), password: 'the thief password' },
        })
      ).status,
    ).toBe(200)
    const res = await t.request('/api/reset-password', {
      method: 'POST',
      json: { token: tokenOf(linkIn(notice, '/reset-password')), password: 'the owner again, safely' },
    })
    expect(res.status).toBe(200)
    expect((await login(owner, 'the owner again, safely')).status).toBe(200)
    expect((await login(thief, 'the thief password')).status).toBe(401)
  })

  it('an address never confirmed (perhaps a typo, perhaps a stranger) is not written to', async () => {
    const typo = unique('typo')
    const { cookie } = await t.signUp(typo)
    await updateEmail(cookie, unique('fixed'))
    await mailerFor(t.deps).settled()
    expect(latestMailTo(dataDir, typo, /e-mail address was changed/)).toBeUndefined()
  })
})

describe('mail to one address', () => {
  it(`is held back past ${MAIL_PER_ADDRESS.hour} an hour, whatever the accounts that cause it`, async () => {
    const victim = unique('victim')
    const sent = () => readOutbox(dataDir).filter((m) => m.to.includes(victim)).length
    // Three accounts each move their address to the victim's and away again: a verification
    // link and a notice to the victim each time, held to the address's own mail budget.
    for (let account = 0; account < 3; account++) {
      const own = unique('bomber')
      const { cookie } = await t.signUp(own)
      for (let i = 0; i < 4; i++) {
        await updateEmail(cookie, victim)
        await updateEmail(cookie, own)
      }
    }
    await mailerFor(t.deps).settled()
    expect(sent()).toBe(MAIL_PER_ADDRESS.hour)
  })
})

describe('pre-hijacking', () => {
  it('an attacker registers the victim address; the victim uses Google; the attacker is out', async () => {
    const victim = unique('victim')
    const attacker = await t.signUp(victim, 'attacker password')
    const attackerLogin = await login(victim, 'attacker password')
    expect(attackerLogin.status).toBe(200)
    const attackerSecond = sessionCookie(attackerLogin)

    const google = await signInWithGoogle({
      sub: `sub-${n}-${Date.now()}`,
      email: victim,
      email_verified: true,
    })
    const victimCookie = sessionCookie(google)
    const victimMe = await (await me(victimCookie)).json()
    expect(victimMe).toMatchObject({ id: attacker.user.id, emailVerified: true })

    // Every way in the attacker had is gone: both sessions and the password.
    expect((await me(attacker.cookie)).status).toBe(401)
    expect((await me(attackerSecond)).status).toBe(401)
    expect((await login(victim, 'attacker password')).status).toBe(401)
    const rows = await t.deps.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, attacker.user.id as string))
    expect(rows).toHaveLength(1)
  })

  it('the same when the attacker changed their own address to the victim one', async () => {
    const victim = unique('victim2')
    const attacker = await t.signUp(unique('attacker'), 'attacker password')
    await updateEmail(attacker.cookie, victim)
    await signInWithGoogle({ sub: `sub2-${n}-${Date.now()}`, email: victim, email_verified: true })
    expect((await me(attacker.cookie)).status).toBe(401)
    expect((await login(victim, 'attacker password')).status).toBe(401)
  })

  it('a verified account is linked and keeps its password and sessions', async () => {
    const email = unique('owner')
    const { cookie } = await t.signUp(email)
    await confirmByMail(email)
    await signInWithGoogle({ sub: `sub3-${n}-${Date.now()}`, email, email_verified: true })
    expect((await me(cookie)).status).toBe(200)
    expect((await login(email, password)).status).toBe(200)
  })
})

describe('forgot password', () => {
  it('answers the same for a known and an unknown address; only the owner gets a link', async () => {
    const email = unique('forgot')
    const nobody = unique('nobody')
    await t.signUp(email)
    const known = await t.request('/api/forgot-password', { method: 'POST', json: { email } })
    const unknown = await t.request('/api/forgot-password', { method: 'POST', json: { email: nobody } })
    expect(known.status).toBe(200)
    expect(unknown.status).toBe(200)
    expect(await known.json()).toEqual(await unknown.json())
    await mailerFor(t.deps).settled()
    const resets = (to: string) =>
      readOutbox(dataDir).filter((m) => m.to.includes(to) && /Reset your Loris password/.test(m.subject))
    expect(resets(email)).toHaveLength(1)
    expect(resets(nobody)).toHaveLength(0)
  })

  it('the link sets a new password once and ends every session; the old password stops working', async () => {
    const email = unique('reset')
    const { cookie } = await t.signUp(email)
    await t.request('/api/forgot-password', { method: 'POST', json: { email } })
    const token = tokenOf(linkIn(await mailTo(email, /Reset your Loris password/), '/reset-password'))
    const reset = await t.request('/api/reset-password', {
      method: 'POST',
      json: { token, password: 'a brand new password' },
    })
    expect(reset.status).toBe(200)
    expect((await me(cookie)).status).toBe(401)
    expect((await login(email, password)).status).toBe(401)
    expect((await login(email, 'a brand new password')).status).toBe(200)
    const reuse = await t.request('/api/reset-password', {
      method: 'POST',
      json: { token, password: 'yet another password' },
    })
    expect(reuse.status).toBe(400)
    await mailTo(email, /password was changed/)
  })

  it('refuses an expired link and a too-short password', async () => {
    const email = unique('expired')
    const { user } = await t.signUp(email)
    await t.request('/api/forgot-password', { method: 'POST', json: { email } })
    const token = tokenOf(linkIn(await mailTo(email, /Reset/), '/reset-password'))
    const short = await t.request('/api/reset-password', {
      method: 'POST',
      json: { token, password: 'short' },
    })
    expect(short.status).toBe(400)
    await t.deps.database.db.execute(
      `update account_tokens set expires_at = now() - interval '1 second' where user_id = '${user.id}'`,
    )
    const late = await t.request('/api/reset-password', {
      method: 'POST',
      json: { token, password: 'a brand new password' },
    })
    expect(late.status).toBe(400)
    expect((await login(email, password)).status).toBe(200)
  })

  it('is rate-limited per address', async () => {
    const email = unique('flood')
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) {
      statuses.push((await t.request('/api/forgot-password', { method: 'POST', json: { email } })).status)
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429])
  })
})

describe('sign-in throttling without lockout', () => {
  it("an attacker's wrong guesses throttle the attacker, not the owner's device or network", async () => {
    const email = unique('target')
    await t.signUp(email)
    // The owner signed in from home before: that browser holds a device cookie.
    const home = await login(email, password, { 'x-forwarded-for': '198.51.100.7' })
    const device = deviceCookieOf(home)
    expect(device).toMatch(/^loris_device=/)

    const attacker = { 'x-forwarded-for': '203.0.113.66' }
    const attempts: number[] = []
    for (let i = 0; i < 14; i++) attempts.push((await login(email, `guess number ${i}`, attacker)).status)
    expect(attempts.slice(0, 10).every((s) => s === 401)).toBe(true)
    expect(attempts.slice(10).every((s) => s === 429)).toBe(true)
    // Even the right password is throttled from the attacker's network now.
    expect((await login(email, password, attacker)).status).toBe(429)

    // The owner's browser with its device cookie, on the attacker's own network even.
    expect((await login(email, password, { ...attacker, cookie: device })).status).toBe(200)
    // The owner from another network, without the cookie.
    expect((await login(email, password, { 'x-forwarded-for': '192.0.2.10' })).status).toBe(200)
  })

  it('a device cookie keeps its own budget and counts only for its account', async () => {
    const email = unique('device')
    await t.signUp(email)
    const device = deviceCookieOf(await login(email, password, { 'x-forwarded-for': '198.51.100.8' }))
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) {
      statuses.push(
        (await login(email, `wrong ${i}`, { 'x-forwarded-for': '198.51.100.8', cookie: device })).status,
      )
    }
    expect(statuses.at(-1)).toBe(429)
    // That cookie does nothing for another account: once that account is throttled on this
    // network, presenting it (or a tampered copy naming the other account) still gets 429.
    const other = unique('other')
    const { user } = await t.signUp(other)
    const here = { 'x-forwarded-for': '198.51.100.8' }
    for (let i = 0; i < 10; i++) await login(other, `wrong ${i}`, here)
    expect((await login(other, password, { ...here, cookie: device })).status).toBe(429)
    const tampered = device.replace(/loris_device=[^.]+/, `loris_device=${user.id}`)
    expect((await login(other, password, { ...here, cookie: tampered })).status).toBe(429)
  })

  it('right passwords do not spend the budget', async () => {
    const email = unique('regular')
    await t.signUp(email)
    for (let i = 0; i < 12; i++) expect((await login(email, password)).status).toBe(200)
  })
})

describe('registering a taken address', () => {
  it('answers 409 and mails the owner a notice, at most once an hour', async () => {
    const email = unique('taken')
    await t.signUp(email)
    for (let i = 0; i < 2; i++) {
      const res = await t.request('/api/register', {
        method: 'POST',
        json: { email, password: 'other password' },
      })
      expect(res.status).toBe(409)
    }
    await mailerFor(t.deps).settled()
    const notices = readOutbox(dataDir).filter(
      (m) => m.to.includes(email) && /tried to create/.test(m.subject),
    )
    expect(notices).toHaveLength(1)
    const [row] = await t.deps.database.db.select().from(users).where(eq(users.email, email))
    expect(row?.emailVerifiedAt).toBeNull()
  })

  it('is rate-limited per address', async () => {
    const email = unique('probe')
    await t.signUp(email)
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) {
      const headers = { 'x-forwarded-for': `198.18.0.${i + 1}` }
      statuses.push(
        (await t.request('/api/register', { method: 'POST', json: { email, password }, headers })).status,
      )
    }
    expect(statuses.slice(0, 9).every((s) => s === 409)).toBe(true)
    expect(statuses.at(-1)).toBe(429)
  })
})
