import { Hono } from 'hono'
import { co2HistoryQuery } from '#contract/impact.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { requireUser } from '#server/lib/session.ts'
import { validate } from '#server/lib/validate.ts'
import { co2History } from './queries.ts'

/** The signed-in user's CO2 numbers (spec section 7; totals kept on the user by the impact feature). */
export function metricsRoutes(deps: AppDeps) {
  const { db } = deps.database
  const auth = requireUser(deps)

  return new Hono<AppEnv>()
    .get('/metrics/co2', auth, (c) => c.json(c.get('user').co2Saved, 200))
    .get('/metrics/co2/range', auth, (c) => {
      const u = c.get('user')
      return c.json({ min: u.co2SavedMin, max: u.co2SavedMax, mid: u.co2Saved }, 200)
    })
    .get('/metrics/co2/history', auth, validate('query', co2HistoryQuery), async (c) => {
      const { days } = c.req.valid('query')
      const now = deps.now?.() ?? new Date()
      return c.json(await co2History(db, c.get('user').id, now, days), 200)
    })
}
