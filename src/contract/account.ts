import { z } from 'zod'
import { emailSchema } from './auth.ts'

/** POST /api/user/update-email: the same e-mail rule as sign-up (spec section 5). */
export const updateEmailBody = z.object({ email: emailSchema })
export type UpdateEmailBody = z.infer<typeof updateEmailBody>

/** POST /api/delete-account answers this once the account is gone. */
export const deleteAccountResult = z.object({ ok: z.literal(true) })
export type DeleteAccountResult = z.infer<typeof deleteAccountResult>

export type { GoogleAuthError } from './google-auth-errors.ts'
