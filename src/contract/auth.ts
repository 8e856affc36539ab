import { z } from 'zod'

export const PASSWORD_MIN_LENGTH = 8

// E-mail is trimmed and lower-cased before it is validated, so ' A@B.io ' signs in as 'a@b.io'.
export const emailSchema = z
  .string({ error: 'Please enter your e-mail address' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'Please enter a valid email address' }).max(254, 'That e-mail address is too long'))

export const credentialsSchema = z.object({
  email: emailSchema,
  password: z
    .string({ error: 'Please enter a password' })
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(256, 'Password must be at most 256 characters'),
})
export type Credentials = z.infer<typeof credentialsSchema>

// Login does not re-check the password rules: a wrong password is simply wrong.
export const loginSchema = z.object({
  email: emailSchema,
  password: z.string({ error: 'Please enter a password' }).min(1, 'Please enter a password').max(256),
})

/** POST /api/forgot-password: always answered `{ ok: true }`, whether or not the address has an account. */
export const forgotPasswordBody = z.object({ email: emailSchema })

const tokenSchema = z
  .string({ error: 'This link is incomplete. Open the link from the e-mail again.' })
  .regex(/^[A-Za-z0-9_-]{20,100}$/, 'This link is incomplete. Open the link from the e-mail again.')

/**
 * POST /api/register: the credentials, and the token of an operator's invitation link when the
 * person came from one (required when the server is invite-only).
 */
export const registerSchema = credentialsSchema.extend({ invite: tokenSchema.optional() })

/** POST /api/reset-password: the token from the mailed link and the new password. */
export const resetPasswordBody = z.object({
  token: tokenSchema,
  password: credentialsSchema.shape.password,
})

/** POST /api/verify-email: the token from the mailed link. */
export const verifyEmailBody = z.object({ token: tokenSchema })

export const okSchema = z.object({ ok: z.literal(true) })
