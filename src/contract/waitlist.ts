import { z } from 'zod'
import { emailSchema } from './auth.ts'

// Spec sections 3 and 7: a waitlist entry is an e-mail. `website` is a honeypot: the field is
// hidden from people, so anything in it came from a bot filling every input it finds.
export const waitlistRequest = z.object({
  email: emailSchema,
  website: z.string().max(2048).optional(),
})
export type WaitlistRequest = z.infer<typeof waitlistRequest>

// The same answer for a new address, a repeat and a bot, so the endpoint reveals nothing about
// who is already on the list.
export const waitlistResponse = z.object({ ok: z.literal(true) })
export type WaitlistResponse = z.infer<typeof waitlistResponse>
