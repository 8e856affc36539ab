import { Hono } from 'hono'
import { loginSchema, registerSchema } from '#contract/auth.ts'
import type { Session } from '#contract/user.ts'
import { publicOrigin } from '#server/env.ts'
import { AppError } from '#server/lib/app-error.ts'
import { clientIp, networkOf } from '#server/lib/client-ip.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { sendVerification } from '#server/lib/email-verification.ts'
import { claimInvite } from '#server/lib/invites.ts'
import { mailerFor } from '#server/lib/mail/mailer.ts'
import { registrationAttemptNotice } from '#server/lib/mail/messages.ts'
import { enforceRateLimit } from '#server/lib/rate-limit.ts'
import { endSession, readSession, requireUser, startSession } from '#server/lib/session.ts'
import { trustDevice } from '#server/lib/trusted-device.ts'
import { toUserJson } from '#server/lib/user-json.ts'
import { validate } from '#server/lib/validate.ts'
import { emailRoutes } from './email-routes.ts'
import { hashPassword, verifyPassword } from './password.ts'
import { createAccount, findUserByEmail } from './queries.ts'
import { countSignInAttempt } from './sign-in-throttle.ts'

const WINDOW = 15 * 60
const INVALID_LOGIN = 'Invalid e-mail or password'
const TAKEN = 'An account with this e-mail already exists'
const INVITE_ONLY =
  'Loris is open by invitation for now. Join the waitlist on the home page and we will e-mail you an invitation.'
const INVITE_USED =
  'This invitation has expired, was already used or was sent to another address. Sign up with the address it was sent to, or ask for a new one.'

export function authRoutes(deps: AppDeps) {
  const { db } = deps.database

  // Per network and per e-mail: one network cannot mass-register, nor probe one address often.
  async function limitRegistration(c: Parameters<typeof clientIp>[0], email: string) {
    const network = networkOf(clientIp(c, deps.env.TRUST_PROXY))
    await enforceRateLimit(db, `register:network:${network}`, { limit: 30, windowSeconds: WINDOW })
    await enforceRateLimit(db, `register:email:${email}`, { limit: 10, windowSeconds: WINDOW })
  }

  /** Tells the owner someone tried their address, at most once an hour so it cannot be used to spam. */
  async function noticeRegistrationAttempt(email: string) {
    try {
      await enforceRateLimit(db, `register-notice:${email}`, { limit: 1, windowSeconds: 3600 })
    } catch {
      return
    }
    mailerFor(deps).send(registrationAttemptNotice(email, `${publicOrigin(deps.env)}/chat`))
  }

  return (
    new Hono<AppEnv>()
      .post('/register', validate('json', registerSchema), async (c) => {
        const { email, password, invite } = c.req.valid('json')
        await limitRegistration(c, email)
        // The spec signs a new account in at once, so a taken address cannot be hidden behind a
        // "check your mail" answer; the owner hears about the attempt instead (decision 010).
        if (await findUserByEmail(db, email)) {
          await noticeRegistrationAttempt(email)
          throw new AppError('conflict:account', TAKEN)
        }
        if (!invite && deps.env.SIGNUP === 'invite') throw new AppError('forbidden:invite_only', INVITE_ONLY)
        // The invitation was mailed to this address: opening its link proves the person reads it.
        if (invite && !(await claimInvite(db, deps.secret, invite, email)))
          throw new AppError('forbidden:invite', INVITE_USED)
        const user = await createAccount(db, {
          email,
          passwordHash: await hashPassword(password),
          emailVerifiedAt: invite ? new Date() : null,
        })
        if (!user) throw new AppError('conflict:account', TAKEN)
        await startSession(c, deps, user)
        trustDevice(c, deps, user.id)
        if (!user.emailVerifiedAt) await sendVerification(deps, user)
        c.get('log').info({ userId: user.id, invited: Boolean(invite) }, 'account created')
        return c.json(toUserJson(user, deps.env), 201)
      })
      .post('/login', validate('json', loginSchema), async (c) => {
        const { email, password } = c.req.valid('json')
        const user = await findUserByEmail(db, email)
        const attempt = await countSignInAttempt(c, deps, email, user?.id)
        const ok = await verifyPassword(user?.passwordHash ?? null, password)
        if (!user || !ok) throw new AppError('unauthorized:login', INVALID_LOGIN)
        await attempt.succeeded()
        await startSession(c, deps, user)
        trustDevice(c, deps, user.id)
        return c.json(toUserJson(user, deps.env), 200)
      })
      .post('/logout', async (c) => {
        await endSession(c, deps)
        return c.json({ ok: true as const }, 200)
      })
      .get('/user', requireUser(deps), (c) => c.json(toUserJson(c.get('user'), deps.env), 200))
      // Who is signed in, if anyone (decision 018): the app asks this on every screen, and for a
      // visitor "nobody" is an answer, not an error (GET /api/user's 401 would be logged as one).
      .get('/session', async (c) => {
        const found = await readSession(c, deps)
        const body: Session = { user: found ? toUserJson(found.user, deps.env) : null }
        return c.json(body, 200)
      })
      .route('/', emailRoutes(deps))
  )
}
