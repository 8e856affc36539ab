import { z } from 'zod'

/** The current-user record: exactly the fields of spec section 3, never secrets. */
export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  // Beyond spec section 3 (decision 010): false until the address's confirmation link is opened.
  emailVerified: z.boolean(),
  googleId: z.string().nullable(),
  isPremium: z.boolean(),
  subscription_start_date: z.string().nullable(),
  subscription_end_date: z.string().nullable(),
  createdAt: z.string(),
  co2Saved: z.number(),
  treesPlanted: z.number().int(),
  aiInputChars: z.number().int(),
  aiOutputChars: z.number().int(),
  aiUsageStartDate: z.string(),
  lastAiUsageReset: z.string(),
  // Beyond spec section 3: whether the operator's console (/admin) is open to this person.
  operator: z.boolean(),
})
export type User = z.infer<typeof userSchema>

/** GET /api/session (decision 018): the signed-in user, or null for a visitor. */
export const sessionSchema = z.object({ user: userSchema.nullable() })
export type Session = z.infer<typeof sessionSchema>

export { isProAt } from './plan.ts'
