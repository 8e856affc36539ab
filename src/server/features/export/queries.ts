import { and, asc, eq, isNull, or } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { messages, threads, uploads, users } from '#server/db/schema/index.ts'

export type ExportThreadRow = typeof threads.$inferSelect

export async function findUser(db: Db, userId: string) {
  const [row] = await db.select().from(users).where(eq(users.id, userId))
  return row
}

/** Oldest first, so a data export reads in the order the person lived it. */
export function threadsOf(db: Db, userId: string) {
  return db
    .select()
    .from(threads)
    .where(eq(threads.userId, userId))
    .orderBy(asc(threads.createdAt), asc(threads.id))
}

export async function findOwnedThread(db: Db, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(threads)
    .where(and(eq(threads.id, id), eq(threads.userId, userId)))
  return row
}

/**
 * A thread's messages, every version of every turn, with their file's details; Default also holds
 * thread-less messages.
 */
export function messagesOf(db: Db, userId: string, thread: ExportThreadRow) {
  const inThread = thread.isDefault
    ? or(eq(messages.threadId, thread.id), isNull(messages.threadId))
    : eq(messages.threadId, thread.id)
  return db
    .select({
      id: messages.id,
      parentId: messages.parentId,
      origin: messages.origin,
      selectedAt: messages.selectedAt,
      content: messages.content,
      response: messages.response,
      status: messages.status,
      errorMessage: messages.errorMessage,
      chatModel: messages.chatModel,
      provider: messages.provider,
      modelId: messages.modelId,
      inputTokens: messages.inputTokens,
      outputTokens: messages.outputTokens,
      latencyMs: messages.latencyMs,
      co2Impact: messages.co2Impact,
      sources: messages.sources,
      toolSteps: messages.toolSteps,
      mediaType: messages.mediaType,
      createdAt: messages.createdAt,
      completedAt: messages.completedAt,
      upload: {
        id: uploads.id,
        fileName: uploads.fileName,
        mimeType: uploads.mimeType,
        kind: uploads.kind,
        size: uploads.size,
        storageKey: uploads.storageKey,
      },
    })
    .from(messages)
    .leftJoin(uploads, and(eq(uploads.id, messages.uploadId), eq(uploads.userId, userId)))
    .where(and(eq(messages.userId, userId), inThread))
    .orderBy(asc(messages.createdAt), asc(messages.id))
}

export type ExportMessageRow = Awaited<ReturnType<typeof messagesOf>>[number]
