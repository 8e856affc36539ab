// The only code touching the shares table.
import { randomBytes } from 'node:crypto'
import { and, asc, desc, eq, inArray, isNull, or } from 'drizzle-orm'
import { co2ImpactSchema } from '#contract/impact.ts'
import { type MessageCo2Impact, messageCo2ImpactSchema } from '#contract/messages.ts'
import type { Db } from '#server/db/client.ts'
import { messages, shares, threads, uploads } from '#server/db/schema/index.ts'
import { type StoredExchange, storedSnapshotSchema } from './snapshot.ts'

export type ShareRow = typeof shares.$inferSelect
type ThreadRow = typeof threads.$inferSelect

/** The impact as a message shows it (midpoints), whatever shape it was stored in. */
function co2Of(stored: unknown): MessageCo2Impact | null {
  const full = co2ImpactSchema.safeParse(stored)
  if (full.success)
    return { saved: full.data.saved.mid, actual: full.data.actual.mid, standard: full.data.standard.mid }
  const plain = messageCo2ImpactSchema.safeParse(stored)
  return plain.success ? plain.data : null
}

export const newShareToken = () => randomBytes(32).toString('base64url')

export async function findOwnedThread(db: Db, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(threads)
    .where(and(eq(threads.id, id), eq(threads.userId, userId)))
  return row
}

/** The thread's exchanges as they stand now, oldest first (Default also holds thread-less ones). */
export async function snapshotOf(db: Db, userId: string, thread: ThreadRow): Promise<StoredExchange[]> {
  const inThread = thread.isDefault
    ? or(eq(messages.threadId, thread.id), isNull(messages.threadId))
    : eq(messages.threadId, thread.id)
  const rows = await db
    .select({
      id: messages.id,
      content: messages.content,
      response: messages.response,
      chatModel: messages.chatModel,
      status: messages.status,
      errorMessage: messages.errorMessage,
      co2Impact: messages.co2Impact,
      mediaType: messages.mediaType,
      uploadId: messages.uploadId,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(and(eq(messages.userId, userId), inThread))
    .orderBy(asc(messages.createdAt), asc(messages.id))
  return rows.map((m) => ({
    ...m,
    // A reply still being written is shared as it stands.
    status: m.status === 'streaming' ? 'interrupted' : m.status,
    co2Impact: co2Of(m.co2Impact),
    createdAt: m.createdAt.toISOString(),
  }))
}

export async function insertShare(
  db: Db,
  v: { userId: string; thread: ThreadRow; snapshot: StoredExchange[]; allowIndexing: boolean },
): Promise<ShareRow> {
  const [row] = await db
    .insert(shares)
    .values({
      token: newShareToken(),
      userId: v.userId,
      threadId: v.thread.id,
      title: v.thread.title,
      snapshot: v.snapshot,
      allowIndexing: v.allowIndexing,
    })
    .returning()
  if (!row) throw new Error('insert into shares returned nothing')
  return row
}

export async function findShare(db: Db, token: string) {
  const [row] = await db.select().from(shares).where(eq(shares.token, token))
  if (!row) return undefined
  return { ...row, exchanges: storedSnapshotSchema.parse(row.snapshot) }
}

export function listShares(db: Db, userId: string) {
  return db
    .select({
      token: shares.token,
      threadId: shares.threadId,
      title: shares.title,
      allowIndexing: shares.allowIndexing,
      createdAt: shares.createdAt,
    })
    .from(shares)
    .where(eq(shares.userId, userId))
    .orderBy(desc(shares.createdAt))
}

export async function deleteShare(db: Db, userId: string, token: string): Promise<boolean> {
  const rows = await db
    .delete(shares)
    .where(and(eq(shares.token, token), eq(shares.userId, userId)))
    .returning({ token: shares.token })
  return rows.length > 0
}

/** The upload a share's snapshot refers to, owned by the share's owner. */
export async function findSharedUpload(db: Db, ownerId: string, uploadId: string) {
  const [row] = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, uploadId), eq(uploads.userId, ownerId)))
  return row
}

/**
 * "Continue this conversation": a new thread of the visitor's own holding the shared exchanges.
 * Files become uploads of theirs (the same stored object); tokens and CO2 stay the owner's.
 */
export async function copyShareToThread(
  db: Db,
  visitorId: string,
  share: NonNullable<Awaited<ReturnType<typeof findShare>>>,
  now: Date,
) {
  return db.transaction(async (tx) => {
    const last = share.exchanges.at(-1)
    const [thread] = await tx
      .insert(threads)
      .values({
        userId: visitorId,
        title: share.title,
        chatModel: last?.chatModel ?? 'gemini',
        lastMessageAt: now,
      })
      .returning()
    if (!thread) throw new Error('insert into threads returned nothing')
    const uploadIds = [...new Set(share.exchanges.flatMap((e) => (e.uploadId ? [e.uploadId] : [])))]
    const originals = uploadIds.length
      ? await tx
          .select()
          .from(uploads)
          .where(and(eq(uploads.userId, share.userId), inArray(uploads.id, uploadIds)))
      : []
    const copies = new Map<string, string>()
    for (const u of originals) {
      const { id, userId: _owner, createdAt: _at, searchVector: _v, ...rest } = u
      const [copy] = await tx
        .insert(uploads)
        .values({ ...rest, userId: visitorId })
        .returning({ id: uploads.id })
      if (copy) copies.set(id, copy.id)
    }
    if (share.exchanges.length) {
      await tx.insert(messages).values(
        share.exchanges.map((e) => {
          const uploadId = e.uploadId ? (copies.get(e.uploadId) ?? null) : null
          return {
            userId: visitorId,
            threadId: thread.id,
            content: e.content,
            response: e.response,
            chatModel: e.chatModel,
            status: e.status,
            errorMessage: e.errorMessage,
            uploadId,
            mediaType: uploadId ? e.mediaType : null,
            mediaUrl: uploadId ? `/api/uploads/${uploadId}` : null,
            createdAt: new Date(e.createdAt),
            completedAt: new Date(e.createdAt),
          }
        }),
      )
    }
    return thread
  })
}
