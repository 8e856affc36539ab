import { z } from 'zod'
import { chatModelSchema } from './config.ts'
import { replyRoutingSchema } from './impact.ts'
import { replyFamilySchema } from './models.ts'
import { pageQuery, pageSchema } from './page.ts'
import { withoutNul } from './text.ts'
import { sourceSchema, toolStepSchema } from './tools.ts'

/** Longest message text accepted in one send (characters). */
export const MESSAGE_MAX_CHARS = 100_000

/**
 * streaming: the reply is still being generated (its `response` grows as the server saves progress);
 * complete: the whole reply arrived; interrupted: it stopped part-way (model error or Stop) and
 * `response` holds what arrived; failed: no reply (the model refused or errored before any text).
 */
export const messageStatusSchema = z.enum(['streaming', 'complete', 'interrupted', 'failed'])

/**
 * How an exchange came to be (decision 012): sent, an edit, a regenerated reply, a copy made by
 * '@', or brought in from another service by an import. Only 'sent' and 'edit' are messages the
 * person wrote here: those plant trees.
 */
export const messageOriginSchema = z.enum(['sent', 'edit', 'regenerate', 'copy', 'import'])
export type MessageStatus = z.infer<typeof messageStatusSchema>

export const mediaTypeSchema = z.enum(['image', 'document'])
export type MediaType = z.infer<typeof mediaTypeSchema>

const gramsRange = z.object({ min: z.number(), max: z.number() })
const estimateRange = z.object({ min: z.number(), max: z.number(), mid: z.number() })

/**
 * Grams of CO2eq for one reply (spec section 3); null until the impact is computed. energyWh
 * (request energy, Wh) and waterL (usage water, litres) with their ranges: absent on replies
 * stored before they were counted.
 */
export const messageCo2ImpactSchema = z.object({
  saved: z.number(),
  actual: z.number(),
  standard: z.number(),
  /** The estimate's bounds (the reply footer's tooltip); absent on old rows. */
  range: z.object({ saved: gramsRange, actual: gramsRange, standard: gramsRange }).optional(),
  energyWh: estimateRange.optional(),
  waterL: estimateRange.optional(),
  /** Which model of the eco pool answered and why (eco routing). */
  routing: replyRoutingSchema.optional(),
})
export type MessageCo2Impact = z.infer<typeof messageCo2ImpactSchema>

/**
 * The passages of its project's files a send retrieved and the model was sent (cited [n] in the
 * reply, in this order), and the characters of those files: the input retrieval saved.
 */
export const messageKnowledgeSchema = z.object({
  passages: z.array(z.object({ fileName: z.string(), text: z.string() })),
  filesChars: z.number(),
})
export type MessageKnowledge = z.infer<typeof messageKnowledgeSchema>

/** A message (one exchange: the user's text and the assistant's reply); dates are ISO strings. */
export const messageSchema = z.object({
  id: z.string(),
  userId: z.string(),
  threadId: z.string().nullable(),
  content: z.string(),
  response: z.string(),
  chatModel: replyFamilySchema,
  co2Impact: messageCo2ImpactSchema.nullable(),
  createdAt: z.string(),
  mediaUrl: z.string().nullable(),
  mediaType: mediaTypeSchema.nullable(),
  /** The sent file's name and its type (e.g. 'application/pdf'), which the exchange shows. */
  mediaName: z.string().nullable().optional(),
  mediaMime: z.string().nullable().optional(),
  status: messageStatusSchema,
  errorMessage: z.string().nullable(),
  clientMessageId: z.string().nullable(),
  /**
   * Versions (docs/decisions/012): the exchange this one follows on its branch, and the ids of
   * every version of this turn, oldest first (this one among them). GET /api/messages answers the
   * shown branch only; switching a version is POST /api/messages/:id/select.
   */
  parentId: z.string().nullable().optional(),
  versionIds: z.array(z.string()).optional(),
  /** The model that answered (e.g. 'gemini-2.5-flash-lite'); modelName is how people call it. */
  modelId: z.string().nullable().optional(),
  modelName: z.string().nullable().optional(),
  /** When the reply ended; null while it is being written. */
  completedAt: z.string().nullable().optional(),
  /** The pages the reply drew on, numbered from 1 as it cites them ([1]); empty when none. */
  sources: z.array(sourceSchema).optional(),
  /** The tools the reply called, in order (name, arguments, result). */
  toolSteps: z.array(toolStepSchema).optional(),
  /** What project retrieval sent the model for this exchange; absent when nothing was retrieved. */
  knowledge: messageKnowledgeSchema.nullable().optional(),
})
export type Message = z.infer<typeof messageSchema>

/**
 * GET /api/messages?threadId= → one page of the shown branch; without threadId, the Default
 * thread's. The newest `limit` exchanges (MESSAGES_PAGE_SIZE when not given) first, each next
 * page (`cursor`) the ones before it, loaded as the person scrolls up; within a page, oldest first.
 */
export const messagesQuery = pageQuery.extend({
  threadId: z.uuid({ error: 'Unknown thread' }).optional(),
})
export type MessagesQuery = z.infer<typeof messagesQuery>
export const messagePageSchema = pageSchema(messageSchema)
export type MessagePage = z.infer<typeof messagePageSchema>
export { MESSAGES_PAGE_SIZE } from './page-sizes.ts'

// Multipart forms carry every field as a string; JSON carries real booleans and null.
const flag = z.union([z.boolean(), z.stringbool()]).optional().default(false)
const optionalId = z
  .union([z.uuid({ error: 'Unknown thread' }), z.literal(''), z.literal('null'), z.literal('undefined')])
  .nullish()
  .transform((v) => (v && v !== 'null' && v !== 'undefined' ? v : null))

const optionalMessageId = z
  .union([z.uuid({ error: 'Unknown message' }), z.literal(''), z.literal('null'), z.literal('undefined')])
  .nullish()
  .transform((v) => (v && v !== 'null' && v !== 'undefined' ? v : null))

/** Most exchanges a temporary chat's send may carry, and the characters of all of them. */
export const TEMPORARY_HISTORY_MAX_TURNS = 50
export const TEMPORARY_HISTORY_MAX_CHARS = 200_000
const temporaryHistorySchema = z
  .array(
    z.object({
      content: withoutNul(z.string().max(MESSAGE_MAX_CHARS), 'history'),
      response: withoutNul(z.string().max(MESSAGE_MAX_CHARS * 2), 'history'),
    }),
  )
  .max(
    TEMPORARY_HISTORY_MAX_TURNS,
    `A temporary chat carries at most ${TEMPORARY_HISTORY_MAX_TURNS} earlier exchanges`,
  )
  .refine(
    (h) => h.reduce((n, e) => n + e.content.length + e.response.length, 0) <= TEMPORARY_HISTORY_MAX_CHARS,
    `A temporary chat carries at most ${TEMPORARY_HISTORY_MAX_CHARS} characters of earlier exchanges`,
  )

/**
 * POST /api/messages (JSON now; a multipart form with the same fields plus one of image, audio or
 * file later). The mode is chatgpt when useOpenAI, else loris when isEcoMode, else gemini (spec 4).
 * clientMessageId is an idempotency key: a retried send with the same key never stores a second
 * message; if the first attempt finished, the stored reply is replayed as the stream.
 * Answers `text/event-stream` of ChatEvent (see chat-events.ts), or a JSON ErrorBody before the
 * stream starts: 400 invalid, 404 unknown thread, 429 `rate_limited:usage` (do not retry).
 */
export const sendMessageFields = z.object({
  content: withoutNul(
    z.string().max(MESSAGE_MAX_CHARS, `A message is at most ${MESSAGE_MAX_CHARS} characters`),
    'message',
  ).default(''),
  threadId: optionalId,
  isEcoMode: flag,
  useOpenAI: flag,
  clientMessageId: withoutNul(
    z.string().trim().min(1).max(100, 'clientMessageId is at most 100 characters'),
    'clientMessageId',
  )
    .nullish()
    .transform((v) => v ?? null),
  /** Edit: the text is a new version of this exchange's turn (its replies stay on the old one). */
  editOf: optionalMessageId,
  /** Regenerate (or Retry): a new reply to this exchange's text, in the mode of this request. */
  regenerateOf: optionalMessageId,
  /** Let the reply search the web (the composer's search toggle); links are read either way. */
  webSearch: flag,
  /** A model of GET /api/models to answer with; without it the mode decides. */
  model: withoutNul(z.string().trim().min(1).max(200, 'model is at most 200 characters'), 'model')
    .nullish()
    .transform((v) => v ?? null),
  /** "Ask a larger model": with regenerateOf, the eco mode answers one step up its pool. */
  larger: flag,
  /** A send without a thread starts one in this project (its instructions and files apply). */
  projectId: z
    .union([z.uuid({ error: 'Unknown project' }), z.literal(''), z.literal('null'), z.literal('undefined')])
    .nullish()
    .transform((v) => (v && v !== 'null' && v !== 'undefined' ? v : null)),
  /**
   * A temporary chat: nothing of it is stored (no thread, message, search entry or share); usage,
   * CO2 and trees still count. `history` is the conversation so far, which only the client holds.
   */
  temporary: flag,
  history: temporaryHistorySchema.optional(),
})
export type SendMessageInput = z.input<typeof sendMessageFields>
export type SendMessageFields = z.output<typeof sendMessageFields>

/** POST /api/messages/:id/stop → the message's status after the request. */
export const messageIdParam = z.object({ id: z.uuid({ error: 'Unknown message' }) })
export const stopMessageResponse = z.object({
  id: z.string(),
  /** 'interrupted' once stopped; a reply that had already ended keeps its status. */
  status: messageStatusSchema,
})
export type StopMessageResponse = z.infer<typeof stopMessageResponse>

/**
 * POST /api/messages/:id/select → the newest page of the branch the thread now shows, as GET
 * /api/messages?limit= answers it (older pages by its cursor).
 */
export const selectVersionResponse = messagePageSchema

/**
 * GET /api/chat/next-model?mode= → the model the user's next message in that mode is answered
 * with on this server (their usage tier, the configured providers). A mode this server cannot
 * serve answers with the first one it can (`chatModel` says which); `limitExceeded` when the
 * usage limit stops sending, `available` false when no mode can answer.
 */
export const nextModelQuery = z.object({ mode: chatModelSchema })
export const nextModelResponse = z.object({
  available: z.boolean(),
  chatModel: chatModelSchema,
  modelId: z.string().nullable(),
  modelName: z.string().nullable(),
  limitExceeded: z.boolean(),
})
export type NextModel = z.infer<typeof nextModelResponse>

/** DELETE /api/messages: every thread but Default is deleted; Default survives, emptied. */
export const clearHistoryResponse = z.object({ ok: z.literal(true) })
export type ClearHistoryResponse = z.infer<typeof clearHistoryResponse>
