// A sign-in with the old password that is still being checked when the owner resets the password
// must not leave a session behind: the reset promises every device out (decision 041). The
// password check is held open here until the reset has finished, so the race is the same on
// every run, not a matter of timing.

import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { issueToken } from '#server/lib/account-tokens.ts'
import { createTestApp, sessionCookie, type TestApp } from '../../../../tests/helpers/test-app.ts'

const held: { until?: Promise<unknown>; reached?: () => void } = {}
vi.mock('./password.ts', async (original) => {
  const real = await original<typeof import('./password.ts')>()
  return {
    ...real,
    verifyPassword: async (stored: string | null, password: string) => {
      const ok = await real.verifyPassword(stored, password)
      held.reached?.()
      await held.until
      return ok
    },
  }
})

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

it('a sign-in with the old password, checked while the reset ran, keeps no session', async () => {
  const email = 'owner@example.com'
  const oldPassword = 'the old password'
  const { user, cookie: before } = await t.signUp(email, oldPassword)
  const token = await issueToken(t.deps.database.db, t.deps.secret, {
    userId: user.id as string,
    purpose: 'reset_password',
    email,
    now: new Date(),
  })

  let release = () => {}
  held.until = new Promise<void>((resolve) => {
    release = resolve
  })
  const checked = new Promise<void>((resolve) => {
    held.reached = resolve
  })
  const signIn = t.request('/api/login', { method: 'POST', json: { email, password: oldPassword } })
  // The sign-in has read the account and checked the old password; the owner resets now.
  await checked
  held.reached = undefined
  held.until = undefined
  const reset = await t.request('/api/reset-password', {
    method: 'POST',
    json: { token, password: 'the owner’s new password' },
  })
  expect(reset.status).toBe(200)
  release()

  const late = await signIn
  // It answers as it began, but the session it wrote is already over.
  expect(late.status).toBe(200)
  expect((await t.request('/api/user', { cookie: sessionCookie(late) })).status).toBe(401)
  expect((await t.request('/api/user', { cookie: before })).status).toBe(401)
})
