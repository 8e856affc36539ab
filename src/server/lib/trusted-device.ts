// OWASP "device cookies": each successful sign-in leaves a signed cookie naming the account and
// a random device id. A sign-in that presents a valid one for the account it targets spends
// that device's own guess budget instead of the account's, so an attacker's failures elsewhere
// never lock the owner out of a browser they have used before (decision 010).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import type { AppDeps } from './context.ts'

export const DEVICE_COOKIE = 'loris_device'
const DEVICE_DAYS = 365

function sign(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(`device:${payload}`).digest('base64url')
}

/** Leaves (or renews) the device cookie for `userId`; the device id stays if it was this user's. */
export function trustDevice(c: Context, deps: AppDeps, userId: string): void {
  const deviceId = trustedDeviceFor(c, deps, userId) ?? randomBytes(16).toString('base64url')
  const payload = `${userId}.${deviceId}`
  setCookie(c, DEVICE_COOKIE, `${payload}.${sign(deps.secret, payload)}`, {
    httpOnly: true,
    sameSite: 'Strict',
    secure: deps.env.PUBLIC_URL?.startsWith('https://') ?? false,
    // Only sign-in needs it.
    path: '/api',
    maxAge: DEVICE_DAYS * 86_400,
  })
}

/** The device id when this request carries a genuine device cookie for `userId`, else null. */
export function trustedDeviceFor(c: Context, deps: AppDeps, userId: string): string | null {
  const value = getCookie(c, DEVICE_COOKIE)
  if (!value) return null
  const parts = value.split('.')
  if (parts.length !== 3) return null
  const [owner, deviceId, mac] = parts as [string, string, string]
  if (owner !== userId || !deviceId) return null
  const expected = Buffer.from(sign(deps.secret, `${owner}.${deviceId}`))
  const given = Buffer.from(mac)
  return expected.length === given.length && timingSafeEqual(expected, given) ? deviceId : null
}
