import type { Thread } from '#contract/threads.ts'
import type { ThreadRow } from './queries.ts'

export function toThreadJson(t: ThreadRow): Thread {
  return {
    id: t.id,
    title: t.title,
    isFavorite: t.isFavorite,
    isDefault: t.isDefault,
    lastMessageAt: t.lastMessageAt.toISOString(),
    chatModel: t.chatModel,
    createdAt: t.createdAt.toISOString(),
  }
}
