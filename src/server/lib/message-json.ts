import { co2ImpactSchema } from '#contract/impact.ts'
import {
  type Message,
  type MessageCo2Impact,
  messageCo2ImpactSchema,
  messageKnowledgeSchema,
} from '#contract/messages.ts'
import { replyModelName } from '#contract/model-names.ts'
import { type Source, sourceSchema, type ToolStep, toolStepSchema } from '#contract/tools.ts'
import type { messages } from '#server/db/schema/index.ts'

type MessageRow = typeof messages.$inferSelect

/**
 * The stored impact (grams with bounds) as a message shows it: the midpoints, the bounds, and the
 * energy and water when they were counted. Also what a share's snapshot keeps.
 */
export function co2Of(stored: unknown): MessageCo2Impact | null {
  if (stored == null) return null
  const full = co2ImpactSchema.safeParse(stored)
  if (full.success) {
    const { saved, actual, standard, energyWh, waterL, routing } = full.data
    const bounds = (g: { min: number; max: number }) => ({ min: g.min, max: g.max })
    return {
      saved: saved.mid,
      actual: actual.mid,
      standard: standard.mid,
      range: { saved: bounds(saved), actual: bounds(actual), standard: bounds(standard) },
      ...(energyWh ? { energyWh } : {}),
      ...(waterL ? { waterL } : {}),
      ...(routing ? { routing } : {}),
    }
  }
  const plain = messageCo2ImpactSchema.safeParse(stored)
  return plain.success ? plain.data : null
}

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

/** A reply's stored sources (messages.sources), the ones of a known shape; [] when none. */
export function sourcesOf(stored: unknown): Source[] {
  const parsed = sourceSchema.array().safeParse(stored ?? [])
  return parsed.success ? parsed.data : []
}

/** A reply's stored tool steps (messages.tool_steps); [] when none. */
export function toolStepsOf(stored: unknown): ToolStep[] {
  const parsed = toolStepSchema.array().safeParse(stored ?? [])
  return parsed.success ? parsed.data : []
}
