import { z } from 'zod'
import { CHAT_MODELS } from './chat-models.ts'

export const chatModelSchema = z.enum(CHAT_MODELS)
export type { ChatModel } from './chat-models.ts'

const availability = z.object({ available: z.boolean(), reason: z.string().nullable() })

/**
 * The Loris eco model when it runs inside this server: its first use fetches and loads it. While
 * `downloading`, bytes/totalBytes/percent say how far (null when unknown); the client polls
 * GET /api/config until `ready` (or `failed`, then the loris mode is unavailable with the reason).
 */
export const ecoEngineStatusSchema = z.object({
  state: z.enum(['idle', 'downloading', 'loading', 'ready', 'failed']),
  bytes: z.number().int().nonnegative().nullable(),
  totalBytes: z.number().int().positive().nullable(),
  percent: z.number().min(0).max(100).nullable(),
})
export type EcoEngineStatusJson = z.infer<typeof ecoEngineStatusSchema>

/** GET /api/config: what this server can do, so the client can disable what it cannot. */
export const configSchema = z.object({
  modes: z.record(chatModelSchema, availability),
  /**
   * The mode for a person whose stored mode is unavailable, or who has none: gemini when it is
   * configured, else loris when the eco model is available, else chatgpt; null when no mode is.
   */
  defaultChatModel: chatModelSchema.nullable(),
  /** The in-process eco engine; null when the eco mode uses an endpoint or is off. */
  ecoEngine: ecoEngineStatusSchema.nullable(),
  payments: availability,
  googleSignIn: availability,
  transcription: availability,
  /** A web search provider is configured: the composer's search toggle works (decision 065). */
  webSearch: availability,
})
export type AppConfig = z.infer<typeof configSchema>
