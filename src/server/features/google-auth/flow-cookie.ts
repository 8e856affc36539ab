// The in-flight sign-in's secrets (state, nonce, PKCE verifier) and the page to return to
// travel in a short-lived, httpOnly cookie signed with HMAC, so any app node can finish a flow
// another one began and the server keeps nothing in memory (decision 005).
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { z } from 'zod'

export const FLOW_COOKIE = 'loris_google_flow'
const COOKIE_PATH = '/auth/google'
export const FLOW_TTL_SECONDS = 10 * 60

const flowSchema = z.object({
  state: z.string().min(1),
  nonce: z.string().min(1),
  verifier: z.string().min(43),
  expiresAt: z.number(),
  /** Checked against the allow-list when the flow begins (return-path.ts); absent in older cookies. */
  returnTo: z.string().optional(),
})
export type Flow = z.infer<typeof flowSchema>

// A purpose label keeps this MAC from ever matching one made with the same secret elsewhere.
function mac(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(`google-flow.v1.${payload}`).digest()
}

export function sealFlow(secret: string, flow: Flow): string {
  const payload = Buffer.from(JSON.stringify(flow)).toString('base64url')
  return `${payload}.${mac(secret, payload).toString('base64url')}`
}

/** The flow when the cookie is intact and not expired, else null. */
export function openFlow(secret: string, value: string | undefined, now: Date): Flow | null {
  if (!value) return null
  const [payload, signature, extra] = value.split('.')
  if (!payload || !signature || extra !== undefined) return null
  const expected = mac(secret, payload)
  const given = Buffer.from(signature, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  try {
    const flow = flowSchema.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')))
    return flow.expiresAt > now.getTime() ? flow : null
  } catch {
    return null
  }
}

// SameSite=Lax: the callback is a top-level GET navigation from Google, which Lax still sends.
export function writeFlowCookie(c: Context, value: string, secure: boolean) {
  setCookie(c, FLOW_COOKIE, value, {
    httpOnly: true,
    sameSite: 'Lax',
    secure,
    path: COOKIE_PATH,
    maxAge: FLOW_TTL_SECONDS,
  })
}

export function readFlowCookie(c: Context): string | undefined {
  return getCookie(c, FLOW_COOKIE)
}

/** A flow is single use: the callback clears it whatever the outcome. */
export function clearFlowCookie(c: Context, secure: boolean) {
  deleteCookie(c, FLOW_COOKIE, { path: COOKIE_PATH, secure })
}
