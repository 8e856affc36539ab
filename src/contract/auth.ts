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

export const okSchema = z.object({ ok: z.literal(true) })
