import { co2ImpactSchema } from '#contract/impact.ts'
import { type Message, type MessageCo2Impact, messageCo2ImpactSchema } from '#contract/messages.ts'
import type { MessageRow } from './queries.ts'

/** The stored impact (grams with bounds) as the message shows it: the midpoints. */
function co2Of(stored: unknown): MessageCo2Impact | null {
  if (stored == null) return null
  const full = co2ImpactSchema.safeParse(stored)
  if (full.success) {
    const { saved, actual, standard, energyWh, waterL } = full.data
    return {
      saved: saved.mid,
      actual: actual.mid,
      standard: standard.mid,
      ...(energyWh ? { energyWh } : {}),
      ...(waterL ? { waterL } : {}),
    }
  }
  const plain = messageCo2ImpactSchema.safeParse(stored)
  return plain.success ? plain.data : null
}

export function toMessageJson(m: MessageRow): Message {
  return {
    id: m.id,
    userId: m.userId,
    threadId: m.threadId,
    content: m.content,
    response: m.response,
    chatModel: m.chatModel,
    co2Impact: co2Of(m.co2Impact),
    createdAt: m.createdAt.toISOString(),
    mediaUrl: m.mediaUrl,
    mediaType: m.mediaType,
    status: m.status,
    errorMessage: m.errorMessage,
    clientMessageId: m.clientMessageId,
  }
}
