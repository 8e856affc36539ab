// What the mailed links do: confirm an address, and "Forgot password?" then set a new one
// (decision 010). The links open client pages (/verify-email, /reset-password) that post here.
import { and, eq, sql } from 'drizzle-orm'
import { Hono } from 'hono'
import { forgotPasswordBody, resetPasswordBody, verifyEmailBody } from '#contract/auth.ts'
import type { Tx } from '#server/db/client.ts'
import { users } from '#server/db/schema/index.ts'
import {
  consumeToken,
  issueToken,
  revokeTokens,
  TOKEN_TTL_MINUTES,
  tokenIsLive,
} from '#server/lib/account-tokens.ts'
import { AppError } from '#server/lib/app-error.ts'
import { clientIp, networkOf } from '#server/lib/client-ip.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { linkTo, RESET_PASSWORD_PATH, sendVerification } from '#server/lib/email-verification.ts'
import { mailerFor } from '#server/lib/mail/mailer.ts'
import { resetPasswordMail } from '#server/lib/mail/messages.ts'
import { queueSecurityNotice, sendSecurityNoticesSoon } from '#server/lib/mail/security-notices.ts'
import { enforceRateLimit } from '#server/lib/rate-limit.ts'
import { endOtherSessions, requireUser } from '#server/lib/session.ts'
import { validate } from '#server/lib/validate.ts'
import { hashPassword } from './password.ts'
import { findUserByEmail } from './queries.ts'
import { loginAccountKey } from './sign-in-throttle.ts'

const WINDOW = 15 * 60
const BAD_LINK =
  'This link is invalid, has expired or was already used. Ask for a new one and use the latest e-mail.'

/**
 * The account back to the address the recovery link was mailed to, with the new password. If
 * another account took that address meanwhile, the password is still reset (every device out)
 * and the account keeps its current address, which the notice of the change named.
 */
async function recoverAccount(tx: Tx, userId: string, email: string, passwordHash: string) {
  const password = { passwordHash, sessionEpoch: sql`${users.sessionEpoch} + 1` }
  try {
    // A savepoint: the address taken by another account fails this step, not the reset.
    return await tx.transaction(
      async (sp) =>
        (
          await sp
            .update(users)
            .set({ ...password, email, emailVerifiedAt: sql`now()` })
            .where(eq(users.id, userId))
            .returning()
        )[0],
    )
  } catch (err) {
    const e = err as { code?: string; cause?: { code?: string } }
    if ((e.code ?? e.cause?.code) !== '23505') throw err
    return (await tx.update(users).set(password).where(eq(users.id, userId)).returning())[0]
  }
}

export function emailRoutes(deps: AppDeps) {
  const { db } = deps.database
  const now = () => deps.now?.() ?? new Date()

  return new Hono<AppEnv>()
    .post('/verify-email', validate('json', verifyEmailBody), async (c) => {
      await enforceRateLimit(db, `verify:network:${networkOf(clientIp(c, deps.env.TRUST_PROXY))}`, {
        limit: 30,
        windowSeconds: WINDOW,
      })
      const used = await consumeToken(db, deps.secret, 'verify_email', c.req.valid('json').token, now())
      if (!used) throw new AppError('bad_request:token', BAD_LINK)
      // Only the address the link was sent to: after an e-mail change, an old link verifies nothing.
      const [user] = await db
        .update(users)
        .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
        .where(and(eq(users.id, used.userId), eq(users.email, used.email)))
        .returning({ id: users.id })
      if (!user) throw new AppError('bad_request:token', BAD_LINK)
      c.get('log').info({ userId: user.id }, 'e-mail address verified')
      return c.json({ ok: true as const }, 200)
    })
    .post('/verify-email/resend', requireUser(deps), async (c) => {
      const user = c.get('user')
      if (user.emailVerifiedAt) return c.json({ ok: true as const }, 200)
      await enforceRateLimit(db, `verify-resend:user:${user.id}`, {
        limit: 3,
        windowSeconds: WINDOW,
        message: (s) => `We just sent you a link. You can ask for another in ${Math.ceil(s / 60)} minutes.`,
      })
      await sendVerification(deps, user)
      return c.json({ ok: true as const }, 200)
    })
    .post('/forgot-password', validate('json', forgotPasswordBody), async (c) => {
      const { email } = c.req.valid('json')
      // The same limits, answer and timing for every address, with or without an account.
      await enforceRateLimit(db, `forgot:network:${networkOf(clientIp(c, deps.env.TRUST_PROXY))}`, {
        limit: 10,
        windowSeconds: WINDOW,
      })
      await enforceRateLimit(db, `forgot:email:${email}`, { limit: 3, windowSeconds: WINDOW })
      mailerFor(deps).sendLater(async () => {
        const user = await findUserByEmail(db, email)
        if (!user) return null
        const token = await issueToken(db, deps.secret, {
          userId: user.id,
          purpose: 'reset_password',
          email: user.email,
          now: now(),
        })
        return resetPasswordMail(
          user.email,
          linkTo(deps, RESET_PASSWORD_PATH, token),
          TOKEN_TTL_MINUTES.reset_password,
        )
      })
      return c.json({ ok: true as const }, 200)
    })
    .post('/reset-password', validate('json', resetPasswordBody), async (c) => {
      const { token, password } = c.req.valid('json')
      await enforceRateLimit(db, `reset:network:${networkOf(clientIp(c, deps.env.TRUST_PROXY))}`, {
        limit: 30,
        windowSeconds: WINDOW,
      })
      if (!(await tokenIsLive(db, deps.secret, ['reset_password', 'recover_account'], token, now()))) {
        throw new AppError('bad_request:token', BAD_LINK)
      }
      // Hashed before the link is used: a crash while hashing leaves the link good for a retry.
      const passwordHash = await hashPassword(password)
      // One transaction: the link is used, the password set, every session and other link ended,
      // or none of it. The epoch's rise also ends a sign-in with the old password still being
      // checked, whose session is written after this (decision 041).
      const done = await db.transaction(async (tx) => {
        const reset = await consumeToken(tx, deps.secret, 'reset_password', token, now())
        // The same page serves the link mailed to an address the account had before a change.
        const recovery = reset ? null : await consumeToken(tx, deps.secret, 'recover_account', token, now())
        const used = reset ?? recovery
        if (!used) return null
        const user = reset
          ? // Opening the mailed link proves the address, so it counts as verified too.
            (
              await tx
                .update(users)
                .set({
                  passwordHash,
                  emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`,
                  sessionEpoch: sql`${users.sessionEpoch} + 1`,
                })
                .where(and(eq(users.id, used.userId), eq(users.email, used.email)))
                .returning()
            )[0]
          : await recoverAccount(tx, used.userId, used.email, passwordHash)
        if (!user) return null
        // Whoever had the old password, or a session, is out; the owner signs in afresh. A
        // recovery also ends the other recovery links: the account is its owner's again.
        await endOtherSessions(tx, user.id)
        await revokeTokens(tx, user.id, now(), { recoveries: Boolean(recovery) })
        await tx.execute(sql`delete from rate_limits where key = ${loginAccountKey(user.email)}`)
        await queueSecurityNotice(tx, { kind: 'password-changed', userId: user.id, toEmail: user.email })
        return { user, recovery }
      })
      if (!done) throw new AppError('bad_request:token', BAD_LINK)
      const { user, recovery } = done
      sendSecurityNoticesSoon(deps)
      c.get('log').info(
        { userId: user.id, recovered: Boolean(recovery) },
        'password reset; every session ended',
      )
      return c.json({ ok: true as const }, 200)
    })
}
