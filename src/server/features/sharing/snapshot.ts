// What a share keeps: the thread's exchanges copied at sharing time. Stored as JSON in
// shares.snapshot; the message ids and uploadId stay on the server (the page gets a token-scoped
// file URL).
import { z } from 'zod'
import { MB } from '#contract/attachments.ts'
import { mediaTypeSchema, messageCo2ImpactSchema, messageStatusSchema } from '#contract/messages.ts'
import { replyModelName } from '#contract/model-names.ts'
import { replyFamilySchema } from '#contract/models.ts'
import { type SharedConversation, sharedExchangeSchema } from '#contract/sharing.ts'
import { sourceSchema } from '#contract/tools.ts'
import { AppError } from '#server/lib/app-error.ts'

export const storedExchangeSchema = z.object({
  id: z.string(),
  content: z.string(),
  response: z.string(),
  chatModel: replyFamilySchema,
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
  sources: z.array(sourceSchema).optional(),
})
export type StoredExchange = z.infer<typeof storedExchangeSchema>
export const storedSnapshotSchema = z.array(storedExchangeSchema)

export const shareFileUrl = (token: string, uploadId: string) => `/api/shares/${token}/files/${uploadId}`

/** The stored keys a reader never gets (the page has the file's token-scoped URL and the model's name). */
export const SERVER_ONLY_KEYS = Object.keys(storedExchangeSchema.shape).filter(
  (key) => !(key in sharedExchangeSchema.shape),
)

/**
 * The most JSON text a share keeps. Anyone with the link reads it, as often as they like: the
 * cap bounds what each read costs the database and the network (a 1,000-exchange import came to
 * 41 MB). 4 MB is a long conversation: 400 exchanges of 10,000 characters.
 */
export const SHARE_MAX_BYTES = 4 * MB

const tooLongToShare = () =>
  new AppError(
    'unprocessable:share_too_large',
    `This conversation is too long to share as a link (a link holds up to ${SHARE_MAX_BYTES / MB} MB of text). ` +
      "Choose Export as Markdown in the thread's menu and send the file instead.",
  )

/**
 * The snapshot as it is stored: its JSON text, through its schema (nothing else is kept, so the
 * reads can answer it as it is), or a 422 past the cap.
 */
export function snapshotJson(snapshot: StoredExchange[]): string {
  // The text alone over the cap (a character is at least a byte) is refused before any copy.
  let chars = 0
  for (const e of snapshot) chars += e.content.length + e.response.length
  if (chars > SHARE_MAX_BYTES) throw tooLongToShare()
  const json = JSON.stringify(storedSnapshotSchema.parse(snapshot))
  if (Buffer.byteLength(json) > SHARE_MAX_BYTES) throw tooLongToShare()
  return json
}

/** Each model's footer name, by chat model and model id: the reads write them into the JSON. */
export function modelNamesOf(pairs: [string, string][]): Record<string, Record<string, string>> {
  const byModel = new Map<string, [string, string][]>()
  for (const [chatModel, modelId] of pairs) {
    const model = replyFamilySchema.safeParse(chatModel)
    const name = model.success ? replyModelName(model.data, modelId) : null
    if (!name) continue
    const names = byModel.get(chatModel) ?? []
    names.push([modelId, name])
    byModel.set(chatModel, names)
  }
  // fromEntries: an id such as '__proto__' (ids come with imports too) stays an ordinary key.
  return Object.fromEntries([...byModel].map(([model, names]) => [model, Object.fromEntries(names)]))
}

/** GET /api/shares/:token's body around exchanges PostgreSQL wrote: spliced in, never parsed. */
export function sharedConversationJson(
  share: Omit<SharedConversation, 'exchanges'>,
  exchangesJson: string,
): string {
  const { title, sharedAt, allowIndexing } = share
  return `${JSON.stringify({ title, sharedAt, allowIndexing }).slice(0, -1)},"exchanges":${exchangesJson}}`
}
