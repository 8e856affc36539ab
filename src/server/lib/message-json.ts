import { type Message, messageKnowledgeSchema } from '#contract/messages.ts'
import { replyModelName } from '#contract/model-names.ts'
import type { messages } from '#server/db/schema/index.ts'
import { co2Of, sourcesOf, toolStepsOf } from '#server/lib/stored-message.ts'

type MessageRow = typeof messages.$inferSelect

/** The columns a message's JSON is made of: what a message page reads, and nothing more. */
export const MESSAGE_JSON_FIELDS = [
  'id',
  'userId',
  'threadId',
  'content',
  'response',
  'chatModel',
  'co2Impact',
  'createdAt',
  'mediaUrl',
  'mediaType',
  'mediaName',
  'mediaMime',
  'status',
  'errorMessage',
  'clientMessageId',
  'parentId',
  'modelId',
  'completedAt',
  'sources',
  'toolSteps',
  'knowledge',
] as const satisfies readonly (keyof MessageRow)[]
export type MessageJsonRow = Pick<MessageRow, (typeof MESSAGE_JSON_FIELDS)[number]>

/**
 * Those columns as PostgreSQL writes them into a list page's JSON (db/json-row.ts): the same
 * values, times as ISO strings.
 */
export type MessageJsonText = Omit<MessageJsonRow, 'createdAt' | 'completedAt'> & {
  createdAt: string
  completedAt: string | null
}

/** A stored exchange as the API answers it; `versionIds` when the list knows the turn's versions. */
export function toMessageJson(m: MessageJsonRow, versionIds?: string[]): Message {
  return messageFromJsonText(
    { ...m, createdAt: m.createdAt.toISOString(), completedAt: m.completedAt?.toISOString() ?? null },
    versionIds,
  )
}

/** The same, from the columns as a page's JSON has them. */
export function messageFromJsonText(m: MessageJsonText, versionIds?: string[]): Message {
  return {
    id: m.id,
    userId: m.userId,
    threadId: m.threadId,
    content: m.content,
    response: m.response,
    chatModel: m.chatModel,
    co2Impact: co2Of(m.co2Impact),
    ...(m.knowledge ? { knowledge: messageKnowledgeSchema.safeParse(m.knowledge).data ?? null } : {}),
    createdAt: m.createdAt,
    mediaUrl: m.mediaUrl,
    mediaType: m.mediaType,
    mediaName: m.mediaName,
    mediaMime: m.mediaMime,
    status: m.status,
    errorMessage: m.errorMessage,
    clientMessageId: m.clientMessageId,
    parentId: m.parentId,
    versionIds: versionIds ?? [m.id],
    modelId: m.modelId,
    modelName: replyModelName(m.chatModel, m.modelId),
    completedAt: m.completedAt,
    sources: sourcesOf(m.sources),
    toolSteps: toolStepsOf(m.toolSteps),
  }
}
