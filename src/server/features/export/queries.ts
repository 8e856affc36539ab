import { and, asc, eq, isNull, or, sql } from 'drizzle-orm'
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

const exportColumns = {
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
}

const inThreadOf = (thread: ExportThreadRow) =>
  thread.isDefault
    ? or(eq(messages.threadId, thread.id), isNull(messages.threadId))
    : eq(messages.threadId, thread.id)

/**
 * A thread's messages, every version of every turn, with their file's details; Default also holds
 * thread-less messages.
 */
export function messagesOf(db: Db, userId: string, thread: ExportThreadRow) {
  return db
    .select(exportColumns)
    .from(messages)
    .leftJoin(uploads, and(eq(uploads.id, messages.uploadId), eq(uploads.userId, userId)))
    .where(and(eq(messages.userId, userId), inThreadOf(thread)))
    .orderBy(asc(messages.createdAt), asc(messages.id))
}

export type ExportMessageRow = Awaited<ReturnType<typeof messagesOf>>[number]

// Where a row stands in its thread's tree, read per row by index (decision 012): the parent it
// follows when that parent is in the thread, its place among its turn's versions (oldest first)
// and how many the turn has. A thread-less row (from before threads) counts as its own turn.
const m = sql.raw('"messages"')
const parentInThread = sql<string | null>`(select p.id from messages p
  where p.id = ${m}.parent_id and p.thread_id = ${m}.thread_id)`
const siblings = (upTo: boolean) => sql<number>`greatest(1, (select count(*)::int from messages v
  where v.thread_id = ${m}.thread_id
    and (v.parent_id = ${m}.parent_id or (${m}.parent_id is null and v.parent_id is null))
    ${upTo ? sql`and (v.created_at, v.id) <= (${m}.created_at, ${m}.id)` : sql``}))`

/** The next `limit` messages of a thread after `after` (created_at then id), with their places. */
export function exportBatch(
  db: Db,
  userId: string,
  thread: ExportThreadRow,
  after: { createdAt: Date; id: string } | null,
  limit: number,
) {
  const later = after
    ? sql`(${messages.createdAt}, ${messages.id}) > (${after.createdAt.toISOString()}::timestamptz, ${after.id}::uuid)`
    : undefined
  return db
    .select({
      ...exportColumns,
      shown: messages.shown,
      parentInThread,
      version: siblings(true),
    })
    .from(messages)
    .leftJoin(uploads, and(eq(uploads.id, messages.uploadId), eq(uploads.userId, userId)))
    .where(and(eq(messages.userId, userId), inThreadOf(thread), later))
    .orderBy(asc(messages.createdAt), asc(messages.id))
    .limit(limit)
}

/** How many exchanges the thread shows (by messages_shown_idx). */
export async function shownCount(db: Db, thread: ExportThreadRow): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(messages)
    .where(and(eq(messages.threadId, thread.id), sql`${messages.shown}`))
  return row?.n ?? 0
}

/** The next `limit` exchanges the thread shows below depth `after`, with their places. */
export function shownBatch(db: Db, userId: string, thread: ExportThreadRow, after: number, limit: number) {
  return db
    .select({
      ...exportColumns,
      depth: messages.depth,
      parentInThread,
      version: siblings(true),
      versions: siblings(false),
    })
    .from(messages)
    .leftJoin(uploads, and(eq(uploads.id, messages.uploadId), eq(uploads.userId, userId)))
    .where(and(eq(messages.threadId, thread.id), sql`${messages.shown}`, sql`${messages.depth} > ${after}`))
    .orderBy(asc(messages.depth))
    .limit(limit)
}
