import type { Thread } from '#contract/threads.ts'
import type { ThreadRow } from './queries.ts'

/** The columns a thread's JSON is made of, under the same names (a page has PostgreSQL write it). */
export const THREAD_JSON_FIELDS = [
  'id',
  'title',
  'isFavorite',
  'isDefault',
  'lastMessageAt',
  'chatModel',
  'createdAt',
  'projectId',
] as const satisfies readonly (keyof Thread & keyof ThreadRow)[]

export function toThreadJson(t: ThreadRow): Thread {
  return {
    id: t.id,
    title: t.title,
    isFavorite: t.isFavorite,
    isDefault: t.isDefault,
    lastMessageAt: t.lastMessageAt.toISOString(),
    chatModel: t.chatModel,
    createdAt: t.createdAt.toISOString(),
    projectId: t.projectId,
  }
}
