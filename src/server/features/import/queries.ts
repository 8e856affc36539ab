import { and, eq, isNull } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { messages, threads } from '#server/db/schema/index.ts'
import type { ImportedThread } from './parse.ts'

const BATCH = 500

export type StoreResult = { ok: true; messages: number } | { ok: false; reason: string }

/**
 * Stores one imported thread with its messages, in one transaction. A thread whose source this
 * user already imported is left alone (threads_import_source_idx), so a second import of the
 * same file creates nothing. An exported Default thread fills the account's own Default thread
 * the first time.
 */
export async function storeImportedThread(db: Db, userId: string, t: ImportedThread): Promise<StoreResult> {
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: threads.id })
      .from(threads)
      .where(and(eq(threads.userId, userId), eq(threads.importSource, t.source)))
    if (existing) return { ok: false, reason: 'already imported' }

    let threadId: string | undefined
    if (t.isDefault) {
      const [def] = await tx
        .update(threads)
        .set({ importSource: t.source, lastMessageAt: new Date(t.lastMessageAt), chatModel: t.chatModel })
        .where(and(eq(threads.userId, userId), eq(threads.isDefault, true), isNull(threads.importSource)))
        .returning({ id: threads.id })
      // A Default already filled by another import: this one becomes a thread of its own.
      threadId = def?.id
    }
    if (!threadId) {
      const [row] = await tx
        .insert(threads)
        .values({
          userId,
          title: t.isDefault ? `${t.title} (imported)` : t.title,
          chatModel: t.chatModel,
          isFavorite: t.isFavorite,
          createdAt: new Date(t.createdAt),
          lastMessageAt: new Date(t.lastMessageAt),
          importSource: t.source,
        })
        .onConflictDoNothing()
        .returning({ id: threads.id })
      if (!row) return { ok: false, reason: 'already imported' }
      threadId = row.id
    }
    for (let at = 0; at < t.messages.length; at += BATCH) {
      await tx.insert(messages).values(
        t.messages.slice(at, at + BATCH).map((m) => ({
          userId,
          threadId,
          content: m.content,
          response: m.response,
          chatModel: m.chatModel,
          provider: m.provider,
          modelId: m.modelId,
          status: m.status,
          errorMessage: m.errorMessage,
          inputTokens: m.inputTokens,
          outputTokens: m.outputTokens,
          latencyMs: m.latencyMs,
          co2Impact: m.co2Impact ?? null,
          createdAt: new Date(m.createdAt),
          completedAt: m.completedAt ? new Date(m.completedAt) : null,
        })),
      )
    }
    return { ok: true, messages: t.messages.length }
  })
}
