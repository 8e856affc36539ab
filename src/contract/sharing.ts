import { z } from 'zod'
import { mediaTypeSchema, messageCo2ImpactSchema, messageStatusSchema } from './messages.ts'
import { replyFamilySchema } from './models.ts'
import { threadSchema } from './threads.ts'
import { sourceSchema } from './tools.ts'

/** Share tokens: 32 random bytes in base64url (256 bits, unguessable). */
export const shareTokenParam = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, { error: 'This link does not exist' }),
})

/** POST /api/threads/:id/share → 201 { url, token }. Search engines index it only if allowed. */
export const createShareBody = z.object({ allowIndexing: z.boolean().optional().default(false) })
export type CreateShareBody = z.input<typeof createShareBody>
export const createShareResponse = z.object({ url: z.string(), token: z.string() })
export type CreateShareResponse = z.infer<typeof createShareResponse>

/**
 * One exchange as the shared page shows it; files are served through the share's token. No ids:
 * a reader needs none (the page lists the exchanges in order), and the owner's stay theirs.
 */
export const sharedExchangeSchema = z.object({
  content: z.string(),
  response: z.string(),
  chatModel: replyFamilySchema,
  status: messageStatusSchema,
  errorMessage: z.string().nullable(),
  co2Impact: messageCo2ImpactSchema.nullable(),
  mediaType: mediaTypeSchema.nullable(),
  mediaUrl: z.string().nullable(),
  mediaName: z.string().nullable().optional(),
  mediaMime: z.string().nullable().optional(),
  createdAt: z.string(),
  /** The reply footer's model and time (absent from links shared before they were kept). */
  modelName: z.string().nullable().optional(),
  completedAt: z.string().nullable().optional(),
  /** The pages the reply drew on, numbered from 1 (absent from links shared before they were kept). */
  sources: z.array(sourceSchema).optional(),
})
export type SharedExchange = z.infer<typeof sharedExchangeSchema>

/** GET /api/shares/:token (public): the conversation as it stood when it was shared. */
export const sharedConversationSchema = z.object({
  title: z.string(),
  sharedAt: z.string(),
  allowIndexing: z.boolean(),
  exchanges: z.array(sharedExchangeSchema),
})
export type SharedConversation = z.infer<typeof sharedConversationSchema>

/** GET /api/shares: the signed-in user's links, newest first. DELETE /api/shares/:token revokes. */
export const shareLinkSchema = z.object({
  token: z.string(),
  url: z.string(),
  threadId: z.string(),
  title: z.string(),
  allowIndexing: z.boolean(),
  createdAt: z.string(),
})
export type ShareLink = z.infer<typeof shareLinkSchema>
export const shareLinkListSchema = z.array(shareLinkSchema)

/** POST /api/shares/:token/continue (signed in) → 201 Thread: a copy of the conversation. */
export const continueShareResponse = threadSchema

export const sharePath = (token: string) => `/share/${token}`
