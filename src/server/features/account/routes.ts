import { Hono } from 'hono'
import type { Logger } from 'pino'
import { updateEmailBody } from '#contract/account.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { AppDeps, AppEnv, UserRow } from '#server/lib/context.ts'
import { sendVerification } from '#server/lib/email-verification.ts'
import { queueSecurityNotice, sendSecurityNoticesSoon } from '#server/lib/mail/security-notices.ts'
import { enforceRateLimit } from '#server/lib/rate-limit.ts'
import { endSession, requireUser } from '#server/lib/session.ts'
import { toUserJson } from '#server/lib/user-json.ts'
import { validate } from '#server/lib/validate.ts'
import { deleteUser, updateEmail } from './queries.ts'

/**
 * Work other features do around an account deletion, composed in app.ts so this feature never
 * imports its siblings. A `beforeDelete` hook that throws keeps the account (e.g. Stripe could
 * not cancel the subscription); `afterDelete` hooks run once the rows are gone and only log
 * their failures, since the account cannot be brought back.
 */
export interface AccountHooks {
  beforeDelete?: Array<(deps: AppDeps, user: UserRow) => Promise<unknown>>
  afterDelete?: Array<(deps: AppDeps, deleted: { userId: string; storageKeys: string[] }) => Promise<unknown>>
}

/**
 * Deletes `user`'s account with the hooks around it: the person's own deletion and an operator's.
 * False when the account was already gone.
 */
export async function deleteAccount(
  deps: AppDeps,
  hooks: AccountHooks,
  user: UserRow,
  requestLog: Logger,
): Promise<boolean> {
  const log = requestLog.child({ userId: user.id })
  for (const hook of hooks.beforeDelete ?? []) await hook(deps, user)
  const deleted = await deleteUser(deps.database.db, user.id)
  if (!deleted) return false
  log.info({ uploads: deleted.storageKeys.length }, 'account deleted')
  for (const hook of hooks.afterDelete ?? []) {
    await hook(deps, { userId: user.id, ...deleted }).catch((err: unknown) =>
      log.error({ err }, 'cleanup after account deletion failed'),
    )
  }
  return true
}

export function accountRoutes(deps: AppDeps, hooks: AccountHooks = {}) {
  const { db } = deps.database
  const auth = requireUser(deps)

  return new Hono<AppEnv>()
    .post('/user/update-email', auth, validate('json', updateEmailBody), async (c) => {
      const user = c.get('user')
      if (user.googleId) {
        throw new AppError(
          'forbidden:google_email',
          'Your e-mail address comes from your Google account and cannot be changed here',
        )
      }
      await enforceRateLimit(db, `update-email:user:${user.id}`, { limit: 10, windowSeconds: 15 * 60 })
      const { email } = c.req.valid('json')
      if (email === user.email) return c.json(toUserJson(user, deps.env), 200)
      // A confirmed old address hears of it, with a link that takes the account back: if someone
      // else made the change (a session left open), its owner can undo it. An address never
      // confirmed may be a stranger's (a typo fixed): it gets nothing. The notice commits with the
      // change, so no crash between them loses it (decision 043).
      const oldEmail = user.emailVerifiedAt ? user.email : null
      const result = await updateEmail(db, user.id, email, async (tx) => {
        if (oldEmail)
          await queueSecurityNotice(tx, {
            kind: 'email-changed',
            userId: user.id,
            toEmail: oldEmail,
            newEmail: email,
          })
      })
      if (!result.ok) {
        if (result.reason === 'gone') throw new AppError('unauthorized:session', 'Please sign in to continue')
        throw new AppError('conflict:email', 'Another account already uses this e-mail address')
      }
      await sendVerification(deps, result.user)
      if (oldEmail) sendSecurityNoticesSoon(deps)
      c.get('log').info({ userId: user.id }, 'e-mail updated')
      return c.json(toUserJson(result.user, deps.env), 200)
    })
    .post('/delete-account', auth, async (c) => {
      const user = c.get('user')
      const deleted = await deleteAccount(deps, hooks, user, c.get('log'))
      // The session row went with the user; this clears the browser's cookie.
      await endSession(c, deps)
      if (!deleted) throw new AppError('unauthorized:session', 'Please sign in to continue')
      return c.json({ ok: true as const }, 200)
    })
}
