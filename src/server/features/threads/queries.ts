import { randomUUID } from 'node:crypto'
import { and, desc, eq, type SQL, sql } from 'drizzle-orm'
import { QueryBuilder } from 'drizzle-orm/pg-core'
import { isChatModel } from '#contract/chat-models.ts'
import { type Thread, threadTitleFrom } from '#contract/threads.ts'
import type { Db } from '#server/db/client.ts'
import { columnsOf, jsonRow } from '#server/db/json-row.ts'
import { executeNamed, placeholders, shapedStatement } from '#server/db/named-statement.ts'
import { messages, threads } from '#server/db/schema/index.ts'
import { chargeUnfinishedReplies } from '#server/features/chat/lease.ts'
import { showRows } from '#server/features/chat/shown-branch.ts'
import {
  badCursor,
  cursorTimestamp,
  cursorUuid,
  decodeCursor,
  encodeCursor,
  exactTimestamp,
} from '#server/lib/cursor.ts'
import { type GuessedSession, guessValues, sessionLive, Unconfirmed } from '#server/lib/session.ts'
import { THREAD_JSON_FIELDS } from './thread-json.ts'

export type ThreadRow = typeof threads.$inferSelect

const owned = (userId: string, id: string) => and(eq(threads.id, id), eq(threads.userId, userId))

/**
 * Default first, then favourites, then the most recently active (ties by id, the order pages
 * follow): every favourite comes in the first pages, so the Favorites section (spec section 4) is
 * whole before the reader scrolls.
 */
export function listThreads(db: Db, userId: string) {
  return db
    .select()
    .from(threads)
    .where(eq(threads.userId, userId))
    .orderBy(desc(threads.isDefault), desc(threads.isFavorite), desc(threads.lastMessageAt), desc(threads.id))
}

const pageColumns = columnsOf(threads, THREAD_JSON_FIELDS)

/** Which text a thread page statement has: each combination is built once. */
interface PageShape {
  after: boolean
  guessed: boolean
}

/** A thread page statement's values, by the names its placeholders have. */
const PAGE_PLACEHOLDERS = placeholders([
  'userId',
  'isDefault',
  'isFavorite',
  'at',
  'id',
  'limit',
  'sessionId',
  'now',
])
type PageValues = typeof PAGE_PLACEHOLDERS

const pageQuery = new QueryBuilder()

/**
 * One page of that order, after the cursor's key: one query walking threads_user_page_idx
 * backwards from it, so a page costs the same with ten threads or a hundred thousand. Each
 * thread's JSON is written by PostgreSQL (db/json-row.ts) with its exact cursor key. `v` holds the
 * values, or the placeholders of a shaped statement.
 */
function threadPageSql(shape: PageShape, v: PageValues): SQL {
  const after = shape.after
    ? sql`(${threads.isDefault}, ${threads.isFavorite}, ${threads.lastMessageAt}, ${threads.id}) < (${v.isDefault}::boolean, ${v.isFavorite}::boolean, ${v.at}::timestamptz, ${v.id}::uuid)`
    : undefined
  return pageQuery
    .select({
      json: jsonRow(pageColumns).as('json'),
      cursorAt: exactTimestamp(threads.lastMessageAt).as('cursorAt'),
    })
    .from(threads)
    .where(
      and(
        sql`${threads.userId} = ${v.userId}::uuid`,
        after,
        shape.guessed ? sessionLive(v.userId, v.sessionId, v.now) : undefined,
      ),
    )
    .orderBy(desc(threads.isDefault), desc(threads.isFavorite), desc(threads.lastMessageAt), desc(threads.id))
    .limit(v.limit as number)
    .getSQL()
}

const isFlag = (part: string | undefined) => part === 't' || part === 'f'

function pageShapeAndValues(
  userId: string,
  cursor: string | undefined,
  limit: number,
  guessedSession?: GuessedSession | null,
) {
  let key: [boolean, boolean, string, string] | null = null
  if (cursor) {
    const parts = decodeCursor(cursor, [3, 4])
    // A cursor written before favourites led the order (three parts) goes on among the others:
    // the favourites it has not shown come with the list's next refetch.
    const [isDefault, isFavorite, at, id] = parts.length === 3 ? [parts[0], 'f', parts[1], parts[2]] : parts
    if (!isFlag(isDefault) || !isFlag(isFavorite)) throw badCursor()
    key = [isDefault === 't', isFavorite === 't', cursorTimestamp(at), cursorUuid(id)]
  }
  const shape: PageShape = { after: key !== null, guessed: !!guessedSession }
  const values: PageValues = {
    userId,
    isDefault: key?.[0] ?? null,
    isFavorite: key?.[1] ?? null,
    at: key?.[2] ?? null,
    id: key?.[3] ?? null,
    // One more than shown: whether a page comes after this one.
    limit: limit + 1,
    ...guessValues(guessedSession),
  }
  return { shape, values }
}

/** The page query with its values in place: for the tests that read its plan. */
export function threadPageQuery(
  userId: string,
  cursor: string | undefined,
  limit: number,
  guessedSession?: GuessedSession | null,
): SQL {
  const { shape, values } = pageShapeAndValues(userId, cursor, limit, guessedSession)
  return threadPageSql(shape, values)
}

/**
 * A page of threads as the answer's JSON text, `{ items, nextCursor }` (contract/threads.ts):
 * each thread's JSON as PostgreSQL wrote it, not parsed and written again (a tenth of a
 * page's CPU). Only the last thread's is read, for the cursor.
 */
export async function listThreadsPageJson(
  db: Db,
  userId: string,
  page: { cursor?: string; limit: number },
  guessedSession?: GuessedSession | null,
): Promise<string> {
  // A shaped statement: built once per shape, run without drizzle's prepared-query object.
  const { shape, values } = pageShapeAndValues(userId, page.cursor, page.limit, guessedSession)
  const { rows: found } = await executeNamed<{ json: string; cursorAt: string }>(
    db,
    shapedStatement('thread-page', shape, () => threadPageSql(shape, PAGE_PLACEHOLDERS), values),
  )
  // An ended session reads no threads, nor does a page past the end: the session is read then.
  if (found.length === 0 && guessedSession) throw new Unconfirmed()
  const shown = found.slice(0, page.limit)
  const last = shown.at(-1)
  let nextCursor: string | null = null
  if (found.length > page.limit && last) {
    const { isDefault, isFavorite, id } = JSON.parse(last.json) as Thread
    nextCursor = encodeCursor([isDefault ? 't' : 'f', isFavorite ? 't' : 'f', last.cursorAt, id])
  }
  return `{"items":[${shown.map((r) => r.json).join(',')}],"nextCursor":${JSON.stringify(nextCursor)}}`
}

// The `isDefault = false` condition keeps the Default thread safe even if a caller forgot to check.
export async function updateThread(
  db: Db,
  userId: string,
  id: string,
  set: { isFavorite?: boolean; title?: string },
) {
  const [row] = await db
    .update(threads)
    .set(set)
    .where(and(owned(userId, id), eq(threads.isDefault, false)))
    .returning()
  return row
}

/**
 * Deletes the thread; its messages go with it (foreign key on delete cascade), a reply still
 * being written charged for what it cost so far.
 */
export async function deleteThread(db: Db, userId: string, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [thread] = await tx
      .select({ id: threads.id })
      .from(threads)
      .where(and(owned(userId, id), eq(threads.isDefault, false)))
      .for('update')
    if (!thread) return false
    await chargeUnfinishedReplies(tx, userId, sql`thread_id = ${id}`)
    await tx.delete(threads).where(eq(threads.id, id))
    return true
  })
}

/**
 * A new thread holding a copy of one exchange, in the mode it was answered in. A reply still
 * being written is copied as it stands, marked interrupted: the copy has no generator.
 */
export async function createThreadFromMessage(db: Db, userId: string, messageId: string, now: Date) {
  return db.transaction(async (tx) => {
    const [source] = await tx
      .select()
      .from(messages)
      .where(and(eq(messages.id, messageId), eq(messages.userId, userId)))
    if (!source) return undefined
    const [thread] = await tx
      .insert(threads)
      .values({
        userId,
        title: threadTitleFrom(source.content),
        chatModel: isChatModel(source.chatModel) ? source.chatModel : 'gemini',
        lastMessageAt: now,
      })
      .returning()
    if (!thread) return undefined
    const { id: _id, clientMessageId: _key, threadId: _thread, createdAt: _at, ...copy } = source
    const id = randomUUID()
    await tx.insert(messages).values({
      id,
      ...copy,
      threadId: thread.id,
      // The first turn of its thread, and not something the person sent (no tree, decisions/012).
      parentId: null,
      // Its thread's whole shown branch (docs/decisions/021).
      depth: 0,
      origin: 'copy',
      selectedAt: now,
      status: source.status === 'streaming' ? 'interrupted' : source.status,
      // The source's reservation and lease stay with the source (docs/decisions/009).
      reservedChars: 0,
      nodeId: null,
    })
    await showRows(tx, thread.id, [{ id, depth: 0 }])
    return thread
  })
}
