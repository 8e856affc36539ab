// What a share keeps: the thread's exchanges copied at sharing time. Stored as JSON in
// shares.snapshot; uploadId stays on the server (the page gets a token-scoped file URL).
import { z } from 'zod'
import { chatModelSchema } from '#contract/config.ts'
import { mediaTypeSchema, messageCo2ImpactSchema, messageStatusSchema } from '#contract/messages.ts'
import { replyModelName } from '#contract/model-names.ts'
import type { SharedExchange } from '#contract/sharing.ts'

export const storedExchangeSchema = z.object({
  id: z.string(),
  content: z.string(),
  response: z.string(),
  chatModel: chatModelSchema,
  /** The model that answered; absent in snapshots taken before replies named it. */
  modelId: z.string().nullable().optional(),
  status: messageStatusSchema,
  errorMessage: z.string().nullable(),
  co2Impact: messageCo2ImpactSchema.nullable(),
  mediaType: mediaTypeSchema.nullable(),
  /** The file's name and type; absent in snapshots taken before the exchange showed them. */
  mediaName: z.string().nullable().optional(),
  mediaMime: z.string().nullable().optional(),
  uploadId: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable().optional(),
})
export type StoredExchange = z.infer<typeof storedExchangeSchema>
export const storedSnapshotSchema = z.array(storedExchangeSchema)

export const shareFileUrl = (token: string, uploadId: string) => `/api/shares/${token}/files/${uploadId}`

export function toSharedExchange(token: string, e: StoredExchange): SharedExchange {
  const { uploadId, modelId, completedAt, ...rest } = e
  return {
    ...rest,
    mediaUrl: uploadId ? shareFileUrl(token, uploadId) : null,
    // The reply footer's model and time, as in the chat.
    modelName: replyModelName(e.chatModel, modelId),
    completedAt: completedAt ?? null,
  }
}
