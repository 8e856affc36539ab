import { z } from 'zod'

export const chatModelSchema = z.enum(['gemini', 'loris', 'chatgpt'])
export type ChatModel = z.infer<typeof chatModelSchema>

const availability = z.object({ available: z.boolean(), reason: z.string().nullable() })

/** GET /api/config: what this server can do, so the client can disable what it cannot. */
export const configSchema = z.object({
  modes: z.record(chatModelSchema, availability),
  payments: availability,
  googleSignIn: availability,
  transcription: availability,
})
export type AppConfig = z.infer<typeof configSchema>
