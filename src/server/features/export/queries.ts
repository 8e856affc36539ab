import { and, asc, eq, sql } from 'drizzle-orm'
import type { Db, Tx } from '#server/db/client.ts'
import { jsonRow } from '#server/db/json-row.ts'
import { inThread, type ThreadRow } from '#server/db/owned-thread.ts'
import {
  messages,
  passages,
  projectFiles,
  projects,
  shownTurns,
  threads,
  uploads,
  users,
} from '#server/db/schema/index.ts'

export type ExportThreadRow = ThreadRow
export type ProjectRow = typeof projects.$inferSelect
export type ProjectFileRow = typeof projectFiles.$inferSelect

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

// What an exported message holds beside its place in the tree, its file and its times: read as
// columns (messagesOf, shownBatch) and as a batch's JSON (exportBatch), in export/format.ts
// toExportedMessage's order.
const exchangeColumns = {
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
}

const exportColumns = {
  id: messages.id,
  parentId: messages.parentId,
  origin: messages.origin,
  selectedAt: messages.selectedAt,
  ...exchangeColumns,
  sources: messages.sources,
  toolSteps: messages.toolSteps,
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

/**
 * A thread's messages, every version of every turn, with their file's details; Default also holds
 * thread-less messages.
 */
export function messagesOf(db: Db, userId: string, thread: ExportThreadRow) {
  return db
    .select(exportColumns)
    .from(messages)
    .leftJoin(uploads, and(eq(uploads.id, messages.uploadId), eq(uploads.userId, userId)))
    .where(and(eq(messages.userId, userId), inThread(thread)))
    .orderBy(asc(messages.createdAt), asc(messages.id))
}

export type ExportMessageRow = Awaited<ReturnType<typeof messagesOf>>[number]

// Where a row stands in its thread's tree, read per row by index (decision 012): the parent it
// follows when that parent is in the thread, its place among its turn's versions (oldest first)
// and how many the turn has. A thread-less row (from before threads) counts as its own turn.
const m = sql.raw('"messages"')
const parentInThread = sql<string | null>`(select p.id from messages p
  where p.id = ${m}.parent_id and p.thread_id = ${m}.thread_id)`
// A turn's versions by messages_thread_parent_idx: the first turn's (no parent) counted apart, an
// `or` of the two would read the whole thread for each row.
const siblings = (upTo: boolean) => {
  const older = upTo ? sql`and (v.created_at, v.id) <= (${m}.created_at, ${m}.id)` : sql``
  return sql<number>`greatest(1, case when ${m}.parent_id is null
    then (select count(*)::int from messages v
      where v.thread_id = ${m}.thread_id and v.parent_id is null ${older})
    else (select count(*)::int from messages v
      where v.thread_id = ${m}.thread_id and v.parent_id = ${m}.parent_id ${older}) end)`
}

/**
 * The next `limit` messages of a thread after `after` (created_at then id), each as its export's
 * JSON text (exportedMessageSchema, the keys in format.ts toExportedMessage's order) written by
 * PostgreSQL: the main thread only joins them (db/json-row.ts). The batch's rows are found first,
 * by the thread alone, in order from messages_thread_page_idx (see inIndexOrder). The thread is
 * the user's (checked before); the thread-less messages from before threads are in Default since
 * migration 0009 (decision 021).
 */
export function exportBatch(
  db: Db | Tx,
  userId: string,
  thread: ExportThreadRow,
  after: { createdAt: string; id: string } | null,
  limit: number,
) {
  const later = after
    ? sql`(${messages.createdAt}, ${messages.id}) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`
    : undefined
  const batch = db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.threadId, thread.id), later))
    .orderBy(asc(messages.createdAt), asc(messages.id))
    .limit(limit)
    .as('batch')
  const attachment = sql`case when ${uploads.id} is null then null else json_build_object(
    'fileName', ${uploads.fileName}, 'mimeType', ${uploads.mimeType}, 'kind', ${uploads.kind},
    'size', ${uploads.size}, 'path', null) end`
  return db
    .select({
      id: messages.id,
      // The exact time, for the next batch's start (the JSON's is to the millisecond).
      createdAt: sql<string>`${messages.createdAt}::text`,
      json: jsonRow({
        id: messages.id,
        version: siblings(true),
        parentId: parentInThread,
        origin: messages.origin,
        selectedAt: messages.selectedAt,
        shown: sql<boolean>`exists (select 1 from shown_turns s where s.message_id = ${m}.id)`,
        ...exchangeColumns,
        attachment,
        createdAt: messages.createdAt,
        completedAt: messages.completedAt,
        sources: sql`coalesce(${messages.sources}, '[]'::jsonb)`,
        toolSteps: sql`coalesce(${messages.toolSteps}, '[]'::jsonb)`,
      }),
    })
    .from(batch)
    .innerJoin(messages, eq(messages.id, batch.id))
    .leftJoin(uploads, and(eq(uploads.id, messages.uploadId), eq(uploads.userId, userId)))
    .orderBy(asc(messages.createdAt), asc(messages.id))
}

/**
 * Runs a batch's read with sorting priced out, so its rows come in order from the index under the
 * limit: statistics that have not yet seen a long thread (imported a moment ago; the embedded
 * database analyzes on its own schedule, decision 030) guess it a hundred rows, and the planner
 * read and sorted the whole thread for every batch (quadratic in the thread's length).
 */
export function inIndexOrder<T>(db: Db, read: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_sort = off`)
    return read(tx)
  })
}

/** How many exchanges the thread shows (by shown_turns_pkey). */
export async function shownCount(db: Db, thread: ExportThreadRow): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(shownTurns)
    .where(eq(shownTurns.threadId, thread.id))
  return row?.n ?? 0
}

/** The next `limit` exchanges the thread shows below depth `after`, with their places. */
export function shownBatch(
  db: Db | Tx,
  userId: string,
  thread: ExportThreadRow,
  after: number,
  limit: number,
) {
  return db
    .select({
      ...exportColumns,
      depth: messages.depth,
      parentInThread,
      version: siblings(true),
      versions: siblings(false),
    })
    .from(shownTurns)
    .innerJoin(messages, eq(messages.id, shownTurns.messageId))
    .leftJoin(uploads, and(eq(uploads.id, messages.uploadId), eq(uploads.userId, userId)))
    .where(and(eq(shownTurns.threadId, thread.id), sql`${shownTurns.depth} > ${after}`))
    .orderBy(asc(shownTurns.depth))
    .limit(limit)
}

/** The person's projects, oldest first. */
export function projectsOf(db: Db, userId: string) {
  return db
    .select()
    .from(projects)
    .where(eq(projects.userId, userId))
    .orderBy(asc(projects.createdAt), asc(projects.id))
}

/** The project a thread belongs to, by the id its row names (the person's own). */
export async function projectOf(db: Db, userId: string, projectId: string | null) {
  if (!projectId) return null
  const [row] = await db
    .select({ id: projects.id, name: projects.name })
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.userId, userId)))
  return row ?? null
}

/** A project's files, oldest first. */
export function projectFilesOf(db: Db, projectId: string) {
  return db
    .select()
    .from(projectFiles)
    .where(eq(projectFiles.projectId, projectId))
    .orderBy(asc(projectFiles.createdAt), asc(projectFiles.id))
}

/**
 * The text a project file was read into: its passages in order, a blank line between them (by
 * passages_project_idx).
 */
export async function projectFileText(db: Db, projectId: string, fileId: string): Promise<string> {
  const [row] = await db
    .select({
      text: sql<string>`coalesce(string_agg(${passages.text}, E'\n\n' order by ${passages.ordinal}), '')`,
    })
    .from(passages)
    .where(and(eq(passages.projectId, projectId), eq(passages.fileId, fileId)))
  return row?.text ?? ''
}
