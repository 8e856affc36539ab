import { Hono } from 'hono'
import { credentialsSchema, loginSchema } from '#contract/auth.ts'
import { AppError } from '#server/lib/app-error.ts'
import { clientIp } from '#server/lib/client-ip.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { enforceRateLimit } from '#server/lib/rate-limit.ts'
import { endSession, requireUser, startSession } from '#server/lib/session.ts'
import { toUserJson } from '#server/lib/user-json.ts'
import { validate } from '#server/lib/validate.ts'
import { hashPassword, verifyPassword } from './password.ts'
import { createAccount, findUserByEmail } from './queries.ts'

const WINDOW = 15 * 60
const INVALID_LOGIN = 'Invalid e-mail or password'

export function authRoutes(deps: AppDeps) {
  const { db } = deps.database

  // Per address and per e-mail: one attacker cannot lock out a user, nor spray many accounts.
  async function limitAttempts(c: Parameters<typeof clientIp>[0], kind: string, email: string) {
    await enforceRateLimit(db, `${kind}:ip:${clientIp(c, deps.env.TRUST_PROXY)}`, {
      limit: 30,
      windowSeconds: WINDOW,
    })
    await enforceRateLimit(db, `${kind}:email:${email}`, { limit: 10, windowSeconds: WINDOW })
  }

  return new Hono<AppEnv>()
    .post('/register', validate('json', credentialsSchema), async (c) => {
      const { email, password } = c.req.valid('json')
      await limitAttempts(c, 'register', email)
      if (await findUserByEmail(db, email)) {
        throw new AppError('conflict:account', 'An account with this e-mail already exists')
      }
      const user = await createAccount(db, { email, passwordHash: await hashPassword(password) })
      if (!user) throw new AppError('conflict:account', 'An account with this e-mail already exists')
      await startSession(c, deps, user.id)
      c.get('log').info({ userId: user.id }, 'account created')
      return c.json(toUserJson(user), 201)
    })
    .post('/login', validate('json', loginSchema), async (c) => {
      const { email, password } = c.req.valid('json')
      await limitAttempts(c, 'login', email)
      const user = await findUserByEmail(db, email)
      const ok = await verifyPassword(user?.passwordHash ?? null, password)
      if (!user || !ok) throw new AppError('unauthorized:login', INVALID_LOGIN)
      await startSession(c, deps, user.id)
      return c.json(toUserJson(user), 200)
    })
    .post('/logout', async (c) => {
      await endSession(c, deps)
      return c.json({ ok: true as const }, 200)
    })
    .get('/user', requireUser(deps), (c) => c.json(toUserJson(c.get('user')), 200))
}
