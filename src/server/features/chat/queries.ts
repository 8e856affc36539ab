// The chat feature's reads and writes: messages, the threads a send creates, the user's usage.
// finalize.ts holds the one write that ends a reply.
import { and, asc, desc, eq, getTableColumns, isNull, ne, or, type SQL, sql } from 'drizzle-orm'
import type { ChatModel } from '#contract/config.ts'
import type { Db } from '#server/db/client.ts'
import { messages, threads, users } from '#server/db/schema/index.ts'
import type { UserRow } from '#server/lib/context.ts'
import {
  cursorTimestamp,
  cursorUuid,
  decodeCursor,
  encodeCursor,
  exactTimestamp,
} from '#server/lib/cursor.ts'
import { admit, type UsageClaim } from './admission.ts'
import type { HistoryExchange } from './history.ts'
import { finishLapsed, LEASE_MS, LOST_NODE_MESSAGE, NODE_ID } from './lease.ts'

export type MessageRow = typeof messages.$inferSelect
export type ThreadRow = typeof threads.$inferSelect

const HISTORY_ROWS = 200

export async function findOwnedThread(db: Db, userId: string, threadId: string) {
  const [row] = await db
    .select()
    .from(threads)
    .where(and(eq(threads.id, threadId), eq(threads.userId, userId)))
  return row
}

export async function findDefaultThread(db: Db, userId: string) {
  const [row] = await db
    .select()
    .from(threads)
    .where(and(eq(threads.userId, userId), eq(threads.isDefault, true)))
  return row
}

export async function findOwnedMessage(db: Db, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.id, id), eq(messages.userId, userId)))
  return row
}

export async function findByClientId(db: Db, userId: string, clientMessageId: string) {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.userId, userId), eq(messages.clientMessageId, clientMessageId)))
  return row
}

/** A thread's messages oldest first; the Default thread also shows any thread-less message. */
export async function listMessages(db: Db, userId: string, thread: ThreadRow) {
  // The sweep does this every few seconds; doing it here too means a list never shows a reply
  // as still being written by a node that is gone.
  await finishLapsed(db, { userId })
  const inThread = thread.isDefault
    ? or(eq(messages.threadId, thread.id), isNull(messages.threadId))
    : eq(messages.threadId, thread.id)
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.userId, userId), inThread))
    .orderBy(asc(messages.createdAt), asc(messages.id))
}

/**
 * One page of a thread's messages, newest first from `cursor` back, returned oldest first. Each
 * source is read through an index in (created_at, id) order and stops after the page: the
 * thread's own rows (messages_thread_page_idx) and, for Default, the thread-less ones
 * (messages_threadless_page_idx), merged here. A reply on the page still marked as being written
 * by a node whose lease lapsed is finished (as the full list does for all of them) and the page
 * read again; usually there is none and the page is one read.
 */
export async function listMessagesPage(
  db: Db,
  userId: string,
  thread: ThreadRow,
  page: { cursor?: string; limit: number },
  lapsedChecked = false,
): Promise<{ rows: MessageRow[]; nextCursor: string | null }> {
  let before: SQL = sql`true`
  if (page.cursor) {
    const [at, id] = decodeCursor(page.cursor, 2)
    before = sql`(${messages.createdAt}, ${messages.id}) < (${cursorTimestamp(at)}::timestamptz, ${cursorUuid(id)}::uuid)`
  }
  const read = (where: SQL | undefined) =>
    db
      .select({ ...getTableColumns(messages), cursorAt: exactTimestamp(messages.createdAt) })
      .from(messages)
      .where(and(where, before))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(page.limit + 1)
  // The thread is the user's (the caller checked): its id alone picks its rows, through the index
  // whose order is the page's.
  const sources = [read(eq(messages.threadId, thread.id))]
  if (thread.isDefault) sources.push(read(and(eq(messages.userId, userId), isNull(messages.threadId))))
  const found = (await Promise.all(sources))
    .flat()
    // Newest first; the exact text of the timestamp sorts as the timestamps do.
    .sort((a, b) => (a.cursorAt === b.cursorAt ? cmp(b.id, a.id) : cmp(b.cursorAt, a.cursorAt)))
  const rows = found.slice(0, page.limit)
  const lapsedBefore = Date.now() - LEASE_MS
  if (
    !lapsedChecked &&
    rows.some((r) => r.status === 'streaming' && r.heartbeatAt.getTime() < lapsedBefore)
  ) {
    await finishLapsed(db, { userId })
    return listMessagesPage(db, userId, thread, page, true)
  }
  const last = rows.at(-1)
  const nextCursor = found.length > page.limit && last ? encodeCursor([last.cursorAt, last.id]) : null
  return { rows: rows.reverse().map(({ cursorAt: _at, ...row }) => row), nextCursor }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** The thread's earlier exchanges for the prompt, oldest first (history.ts applies the budget). */
export async function loadHistory(db: Db, threadId: string, exceptId: string): Promise<HistoryExchange[]> {
  const rows = await db
    .select({
      content: messages.content,
      response: messages.response,
      status: messages.status,
      mediaType: messages.mediaType,
    })
    .from(messages)
    .where(and(eq(messages.threadId, threadId), ne(messages.id, exceptId)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(HISTORY_ROWS)
  return rows.reverse()
}

/** Starts a new usage period when 30 days have passed; returns the user as it now stands. */
export async function resetUsageIfDue(db: Db, user: UserRow, now: Date, due: boolean): Promise<UserRow> {
  if (!due) return user
  // Conditional on the old reset time, so two concurrent sends reset once.
  const [row] = await db
    .update(users)
    .set({ aiInputChars: 0, aiOutputChars: 0, lastAiUsageReset: now })
    .where(and(eq(users.id, user.id), eq(users.lastAiUsageReset, user.lastAiUsageReset)))
    .returning()
  if (row) return row
  const [fresh] = await db.select().from(users).where(eq(users.id, user.id))
  return fresh ?? user
}

export interface NewMessage {
  userId: string
  /** null: create a thread titled `title`. */
  threadId: string | null
  title: string
  content: string
  clientMessageId: string | null
  chatModel: ChatModel
  provider: string
  modelId: string
  mediaUrl?: string | null
  mediaType?: 'image' | 'document' | null
  uploadId?: string | null
}

class DuplicateSend extends Error {}

/**
 * Stores the user's message (status streaming) before the model is called, creating the thread
 * when none was named. Returns null when the clientMessageId was already used (nothing stored).
 */
export async function storeUserMessage(
  db: Db,
  v: NewMessage,
  claim: UsageClaim,
): Promise<{ row: MessageRow; createdThread: boolean } | null> {
  try {
    return await db.transaction(async (tx) => {
      // Checks and reserves in this transaction: a refusal or a duplicate rolls the reservation back.
      await admit(tx, v.userId, claim)
      let threadId = v.threadId
      if (!threadId) {
        const [thread] = await tx
          .insert(threads)
          .values({ userId: v.userId, title: v.title, chatModel: v.chatModel })
          .returning({ id: threads.id })
        threadId = thread?.id ?? null
      }
      const [row] = await tx
        .insert(messages)
        .values({
          userId: v.userId,
          threadId,
          content: v.content,
          clientMessageId: v.clientMessageId,
          chatModel: v.chatModel,
          provider: v.provider,
          modelId: v.modelId,
          mediaUrl: v.mediaUrl ?? null,
          mediaType: v.mediaType ?? null,
          uploadId: v.uploadId ?? null,
          reservedChars: claim.chars,
          nodeId: NODE_ID,
        })
        .onConflictDoNothing()
        .returning()
      // Rolls the new thread back too: the first send owns it.
      if (!row) throw new DuplicateSend()
      return { row, createdThread: !v.threadId }
    })
  } catch (err) {
    if (err instanceof DuplicateSend) return null
    throw err
  }
}

/** A stored send that a retry generates again: the model never answered, or its node died. */
export function generatesAgain(row: Pick<MessageRow, 'status' | 'errorMessage'>): boolean {
  return row.status === 'failed' || (row.status === 'interrupted' && row.errorMessage === LOST_NODE_MESSAGE)
}

/**
 * A retried send of a failed (or lost) message generates again into the same row, admitted and
 * reserved like a new send. createdAt moves to now: the row is a fresh attempt.
 */
export async function restartAttempt(
  db: Db,
  row: Pick<MessageRow, 'id' | 'userId'>,
  model: { chatModel: ChatModel; provider: string; modelId: string },
  now: Date,
  claim: UsageClaim,
) {
  try {
    return await db.transaction(async (tx) => {
      await admit(tx, row.userId, claim)
      const [restarted] = await tx
        .update(messages)
        .set({
          ...model,
          status: 'streaming',
          response: '',
          errorMessage: null,
          createdAt: now,
          completedAt: null,
          reservedChars: claim.chars,
          nodeId: NODE_ID,
          heartbeatAt: sql`now()`,
        })
        .where(
          and(
            eq(messages.id, row.id),
            or(
              eq(messages.status, 'failed'),
              and(eq(messages.status, 'interrupted'), eq(messages.errorMessage, LOST_NODE_MESSAGE)),
            ),
          ),
        )
        .returning()
      // Another retry restarted it first: undo this reservation (the caller answers as a resend).
      if (!restarted) throw new AlreadyRestarted()
      return restarted
    })
  } catch (err) {
    if (err instanceof AlreadyRestarted) return undefined
    throw err
  }
}

class AlreadyRestarted extends Error {}

/** The Stop flag every node sees: a streaming reply becomes interrupted; its generator notices. */
export async function markStopped(db: Db, userId: string, id: string) {
  await db
    .update(messages)
    .set({ status: 'interrupted' })
    .where(and(eq(messages.id, id), eq(messages.userId, userId), eq(messages.status, 'streaming')))
  return findOwnedMessage(db, userId, id)
}

/** Clears all history: the Default thread survives, emptied; every other thread goes. */
export async function clearHistory(db: Db, userId: string): Promise<string[]> {
  return db.transaction(async (tx) => {
    const gone = await tx
      .delete(messages)
      .where(eq(messages.userId, userId))
      .returning({ id: messages.id, status: messages.status })
    await tx.delete(threads).where(and(eq(threads.userId, userId), eq(threads.isDefault, false)))
    await tx
      .update(threads)
      .set({ chatModel: 'gemini', isFavorite: false, lastMessageAt: sql`now()` })
      .where(and(eq(threads.userId, userId), eq(threads.isDefault, true)))
    return gone.filter((m) => m.status === 'streaming').map((m) => m.id)
  })
}
