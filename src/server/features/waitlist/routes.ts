import { Hono } from 'hono'
import { waitlistRequest } from '#contract/waitlist.ts'
import { clientIp } from '#server/lib/client-ip.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { enforceRateLimit } from '#server/lib/rate-limit.ts'
import { validate } from '#server/lib/validate.ts'
import { joinWaitlist } from './queries.ts'

// Generous enough for an office behind one address, tight enough to stop a script filling the
// list. Counted before validation, so junk requests use up the allowance too.
export const WAITLIST_LIMIT = { limit: 20, windowSeconds: 60 * 60 }

/** POST /api/waitlist (spec sections 4 and 7). */
export function waitlistRoutes(deps: AppDeps) {
  const { db } = deps.database

  return new Hono<AppEnv>().post(
    '/waitlist',
    async (c, next) => {
      await enforceRateLimit(db, `waitlist:ip:${clientIp(c, deps.env.TRUST_PROXY)}`, {
        ...WAITLIST_LIMIT,
        message: 'Too many sign-ups from your network. Please try again later.',
      })
      await next()
    },
    validate('json', waitlistRequest),
    async (c) => {
      const { email, website } = c.req.valid('json')
      if (website?.trim()) {
        // A bot: answer exactly as for a person, store nothing.
        c.get('log').info({ honeypot: true }, 'waitlist sign-up ignored')
        return c.json({ ok: true as const }, 200)
      }
      await joinWaitlist(db, email)
      return c.json({ ok: true as const }, 200)
    },
  )
}
