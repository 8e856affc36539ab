import { publicOrigin } from '#server/env.ts'
import { issueToken, TOKEN_TTL_MINUTES } from './account-tokens.ts'
import type { AppDeps } from './context.ts'
import { mailerFor } from './mail/mailer.ts'
import { verifyEmailMail } from './mail/messages.ts'

/** Path of the client page a verification link opens (the page posts the token). */
export const VERIFY_EMAIL_PATH = '/verify-email'
export const RESET_PASSWORD_PATH = '/reset-password'

export function linkTo(deps: AppDeps, pagePath: string, token: string): string {
  return `${publicOrigin(deps.env)}${pagePath}?token=${encodeURIComponent(token)}`
}

/** Mails `email` a link that marks it verified for this user (registration, e-mail change, resend). */
export async function sendVerification(deps: AppDeps, user: { id: string; email: string }): Promise<void> {
  const now = deps.now?.() ?? new Date()
  const token = await issueToken(deps.database.db, deps.secret, {
    userId: user.id,
    purpose: 'verify_email',
    email: user.email,
    now,
  })
  mailerFor(deps).send(
    verifyEmailMail(user.email, linkTo(deps, VERIFY_EMAIL_PATH, token), TOKEN_TTL_MINUTES.verify_email / 60),
  )
}
