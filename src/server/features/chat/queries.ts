// The chat feature's reads and writes: messages, the threads a send creates, the user's usage.
// finalize.ts holds the one write that ends a reply.
import { randomUUID } from 'node:crypto'
import { and, desc, eq, or, type SQL, sql } from 'drizzle-orm'
import { QueryBuilder } from 'drizzle-orm/pg-core'
import type { MessageKnowledge } from '#contract/messages.ts'
import type { ReplyFamily } from '#contract/models.ts'
import type { Database, Db } from '#server/db/client.ts'
import { columnsOf, jsonRow } from '#server/db/json-row.ts'
import { executeNamed, placeholders, shapedStatement } from '#server/db/named-statement.ts'
import { findOwnedThread } from '#server/db/owned-thread.ts'
import { messages, shownTurns, threads, users } from '#server/db/schema/index.ts'
import type { BranchEntry } from '#server/lib/branch.ts'
import type { UserRow } from '#server/lib/context.ts'
import { badCursor, cursorUuid, decodeCursor, encodeCursor } from '#server/lib/cursor.ts'
import { MESSAGE_JSON_FIELDS, type MessageJsonText } from '#server/lib/message-json.ts'
import { type GuessedSession, guessValues, sessionLive, Unconfirmed } from '#server/lib/session.ts'
import { reserve, type UsageClaim } from './admission.ts'
import { chargeUnfinishedReplies, finishLapsed, LEASE_MS, LOST_NODE_MESSAGE, NODE_ID } from './lease.ts'
import type { PromptContext } from './prompt-context.ts'
import { switchVersion } from './shown-branch.ts'

export type MessageRow = typeof messages.$inferSelect
/**
 * A message as a page reads it: the columns of its JSON and the lease's heartbeat, written by
 * PostgreSQL as one JSON text per row (db/json-row.ts), with the turn's versions.
 */
const PAGE_FIELDS = [...MESSAGE_JSON_FIELDS, 'heartbeatAt'] as const
export type PageRow = MessageJsonText & { heartbeatAt: string; versionIds: string[] | null }

const pageColumns = columnsOf(messages, PAGE_FIELDS)

export type { ThreadRow } from '#server/db/owned-thread.ts'

export async function findDefaultThread(db: Db, userId: string) {
  const [row] = await db
    .select()
    .from(threads)
    .where(and(eq(threads.userId, userId), eq(threads.isDefault, true)))
  return row
}

/** The user's message that `match` names (another user's is never found). */
async function findMessage(db: Db, userId: string, match: SQL) {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.userId, userId), match))
  return row
}

export const findOwnedMessage = (db: Db, userId: string, id: string) =>
  findMessage(db, userId, eq(messages.id, id))

export const findByClientId = (db: Db, userId: string, clientMessageId: string) =>
  findMessage(db, userId, eq(messages.clientMessageId, clientMessageId))

/** Keeps what retrieval sent the model with the stored exchange (nothing when nothing was). */
export async function saveKnowledge(db: Db, messageId: string, ctx: PromptContext): Promise<void> {
  if (!ctx.passages.length) return
  const knowledge: MessageKnowledge = { passages: ctx.passages, filesChars: ctx.filesChars }
  await db.update(messages).set({ knowledge }).where(eq(messages.id, messageId))
}

/**
 * The thread a page is of: one named by id (only if it is the user's), or the user's Default.
 * With `guessedSession`, only while that session is live (decision 036).
 */
export interface PageThread {
  userId: string
  threadId: string | null
  guessedSession?: GuessedSession | null
}

/** Which text a page statement has: each combination is built once (db/named-statement.ts). */
interface PageShape {
  byId: boolean
  before: boolean
  guessed: boolean
}

/** A page statement's values, by the names its placeholders have. */
const PAGE_PLACEHOLDERS = placeholders(['userId', 'threadId', 'before', 'limit', 'sessionId', 'now'])
type PageValues = typeof PAGE_PLACEHOLDERS

const pageQuery = new QueryBuilder()

/**
 * The page query (decision 021): the shown rows of the thread just before the cursor's depth,
 * newest first, one walk of shown_turns_pkey; each row with its turn's versions (its siblings,
 * by messages_thread_parent_idx). The thread is found in the same statement (another user's
 * thread gives no rows). A cursor no longer on the shown branch (a version switched since) matches
 * no depth, so the page is empty. `v` holds the values, or the placeholders of a shaped statement.
 */
function messagePageSql(shape: PageShape, v: PageValues): SQL {
  const live = shape.guessed ? sql` and ${sessionLive(v.userId, v.sessionId, v.now)}` : sql``
  const thread = shape.byId
    ? sql`(select t.id from threads t where t.id = ${v.threadId}::uuid and t.user_id = ${v.userId}::uuid${live})`
    : sql`(select t.id from threads t where t.user_id = ${v.userId}::uuid and t.is_default${live})`
  const below = shape.before
    ? sql`"shown_turns"."depth" < (select c.depth from shown_turns c where c.message_id = ${v.before}::uuid and c.thread_id = ${thread})`
    : sql`true`
  const order = sql.raw('order by v.created_at, v.id')
  // Qualified by hand: drizzle writes a single table's columns unqualified, which inside these
  // subqueries would name v's.
  const outer = sql.raw('"messages"."thread_id"')
  const outerParent = sql.raw('"messages"."parent_id"')
  const versionIds = sql`coalesce(
    (select json_agg(v.id ${order}) from messages v
      where v.thread_id = ${outer} and v.parent_id = ${outerParent}),
    (select json_agg(v.id ${order}) from messages v
      where v.thread_id = ${outer} and v.parent_id is null and ${outerParent} is null)
  )`
  return pageQuery
    .select({ json: jsonRow({ ...pageColumns, versionIds }).as('json') })
    .from(shownTurns)
    .innerJoin(messages, eq(messages.id, shownTurns.messageId))
    .where(and(sql`"shown_turns"."thread_id" = ${thread}`, below))
    .orderBy(desc(shownTurns.depth))
    .limit(v.limit as number)
    .getSQL()
}

function pageShapeAndValues(of: PageThread, before: string | null, limit: number) {
  const shape: PageShape = {
    byId: of.threadId !== null,
    before: before !== null,
    guessed: !!of.guessedSession,
  }
  const values: PageValues = {
    userId: of.userId,
    threadId: of.threadId,
    before,
    // One more than shown: whether a page comes after this one.
    limit: limit + 1,
    ...guessValues(of.guessedSession),
  }
  return { shape, values }
}

/** The page query with its values in place: for the tests that read its plan. */
export function messagePageQuery(of: PageThread, before: string | null, limit: number): SQL {
  const { shape, values } = pageShapeAndValues(of, before, limit)
  return messagePageSql(shape, values)
}

/** A page of the shown branch, oldest first, and the cursor of the page before it. */
export interface MessagesPage {
  entries: BranchEntry<PageRow>[]
  nextCursor: string | null
}

/**
 * One page of the shown branch (docs/decisions/012, 014 and 021) before `cursor` (the oldest
 * exchange the page before showed; off the branch after a switch: `400 bad_request:cursor`), oldest
 * first with each turn's versions, in one statement. A reply whose node's lease lapsed is finished
 * and the page read again. Null when the thread is not the user's.
 */
export async function listMessagesPage(
  db: Db,
  of: PageThread,
  page: { cursor?: string; limit: number },
  lapsedChecked = false,
): Promise<MessagesPage | null> {
  const before = page.cursor ? cursorUuid(decodeCursor(page.cursor, 1)[0]) : null
  const { shape, values } = pageShapeAndValues(of, before, page.limit)
  const { rows } = await executeNamed<{ json: string }>(
    db,
    shapedStatement('message-page', shape, () => messagePageSql(shape, PAGE_PLACEHOLDERS), values),
  )
  const found = rows.map((r) => JSON.parse(r.json) as PageRow)
  if (found.length === 0) {
    // A session that ended shows nothing either: it is read before anything else is answered.
    if (of.guessedSession) throw new Unconfirmed()
    // Nothing shown: an empty thread, another user's (or none), or a cursor off the branch.
    const thread = of.threadId
      ? await findOwnedThread(db, of.userId, of.threadId)
      : await findDefaultThread(db, of.userId)
    if (!thread) return null
    // Every cursor this server writes has exchanges before it: none means it left the branch.
    if (before) throw badCursor()
    return { entries: [], nextCursor: null }
  }
  const lapsedBefore = Date.now() - LEASE_MS
  if (
    !lapsedChecked &&
    found.some((row) => row.status === 'streaming' && Date.parse(row.heartbeatAt) < lapsedBefore)
  ) {
    await finishLapsed(db, { userId: of.userId })
    return listMessagesPage(db, { ...of, guessedSession: null }, page, true)
  }
  const shown = found.slice(0, page.limit).reverse()
  const entries = shown.map((row) => ({ row, versionIds: row.versionIds ?? [row.id] }))
  const first = shown[0]
  const nextCursor = found.length > page.limit && first ? encodeCursor([first.id]) : null
  return { entries, nextCursor }
}

/** A person's version switches on the embedded database, one at a time (shown-branch.ts). */
const switching = new Map<string, Promise<unknown>>()

/**
 * Shows this version of its turn (and, below it, the versions last chosen there). Its ancestors
 * are selected with it: a version on a branch not shown (a search match) brings its whole branch;
 * for a version of a shown turn they are on the shown branch already, so nothing else changes.
 * Answers the version's thread, or undefined when it is not the user's. The flags move in steps
 * on the embedded database, whose transactions hold it from everyone; a person's switches there
 * take turns, so two never interleave their steps (decision 048).
 */
export async function selectVersion(
  database: Pick<Database, 'db' | 'kind'>,
  userId: string,
  id: string,
  now: Date,
): Promise<{ threadId: string | null } | undefined> {
  const { db } = database
  // PostgreSQL: one transaction, which holds only this thread's rows.
  if (database.kind === 'postgres') return db.transaction((tx) => switchVersion(db, userId, id, now, { tx }))
  const turn = () => switchVersion(db, userId, id, now)
  const before = switching.get(userId) ?? Promise.resolve()
  const mine = before.then(turn, turn)
  const settled = mine.catch(() => undefined)
  switching.set(userId, settled)
  try {
    return await mine
  } finally {
    if (switching.get(userId) === settled) switching.delete(userId)
  }
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

/** A stored send that a retry generates again: the model never answered, or its node died. */
export function generatesAgain(row: Pick<MessageRow, 'status' | 'errorMessage'>): boolean {
  return row.status === 'failed' || (row.status === 'interrupted' && row.errorMessage === LOST_NODE_MESSAGE)
}

/** A message a retry may generate again into: failed, or lost with its node. */
const restartable = or(
  eq(messages.status, 'failed'),
  and(eq(messages.status, 'interrupted'), eq(messages.errorMessage, LOST_NODE_MESSAGE)),
)

/** The columns a new attempt at a reply starts with: streaming on this node, its usage reserved. */
export const newAttempt = (attemptId: string, reservedChars: number) => ({
  status: 'streaming' as const,
  errorMessage: null,
  completedAt: null,
  reservedChars,
  nodeId: NODE_ID,
  heartbeatAt: sql`now()`,
  attemptId,
})

export type Restart =
  | { kind: 'restarted'; row: MessageRow & { attemptId: string } }
  /** Another retry restarted it first. */
  | { kind: 'taken' }
  /** The usage limit or the replies generating refuse it (admission.ts refusalFor says which). */
  | { kind: 'refused' }

/**
 * A retried send of a failed (or lost) message generates again into the same row, admitted like a
 * new send, as a new attempt: a node still writing the one before can neither save nor end it.
 */
export async function restartAttempt(
  db: Db,
  row: Pick<MessageRow, 'id' | 'userId'>,
  model: { chatModel: ReplyFamily; provider: string; modelId: string },
  now: Date,
  claim: UsageClaim,
): Promise<Restart> {
  const attemptId = randomUUID()
  return db.transaction(async (tx): Promise<Restart> => {
    // Locked first: a second retry waits here, then finds it restarted.
    const [claimed] = await tx
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.id, row.id), restartable))
      .for('update')
    if (!claimed) return { kind: 'taken' }
    if (!(await reserve(tx, row.userId, claim))) return { kind: 'refused' }
    const [restarted] = await tx
      .update(messages)
      .set({ ...model, ...newAttempt(attemptId, claim.chars), response: '', createdAt: now })
      .where(eq(messages.id, row.id))
      .returning()
    return restarted ? { kind: 'restarted', row: { ...restarted, attemptId } } : { kind: 'taken' }
  })
}

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
    await chargeUnfinishedReplies(tx, userId, sql`true`)
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
