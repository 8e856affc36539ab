// The only code touching the shares table.
import { randomBytes, randomUUID } from 'node:crypto'
import { and, asc, desc, eq, inArray, isNull, or } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { messages, shares, threads, uploads } from '#server/db/schema/index.ts'
import { activeBranch } from '#server/features/chat/branch.ts'
import { co2Of } from '#server/features/chat/message-json.ts'
import { type StoredExchange, storedSnapshotSchema } from './snapshot.ts'

export type ShareRow = typeof shares.$inferSelect
type ThreadRow = typeof threads.$inferSelect

export const newShareToken = () => randomBytes(32).toString('base64url')

export async function findOwnedThread(db: Db, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(threads)
    .where(and(eq(threads.id, id), eq(threads.userId, userId)))
  return row
}

/**
 * The thread's exchanges as they stand now, oldest first (Default also holds thread-less ones):
 * the branch it shows, without the other versions (decision 012).
 */
export async function snapshotOf(db: Db, userId: string, thread: ThreadRow): Promise<StoredExchange[]> {
  const inThread = thread.isDefault
    ? or(eq(messages.threadId, thread.id), isNull(messages.threadId))
    : eq(messages.threadId, thread.id)
  const rows = await db
    .select({
      id: messages.id,
      parentId: messages.parentId,
      selectedAt: messages.selectedAt,
      content: messages.content,
      response: messages.response,
      chatModel: messages.chatModel,
      modelId: messages.modelId,
      status: messages.status,
      errorMessage: messages.errorMessage,
      co2Impact: messages.co2Impact,
      mediaType: messages.mediaType,
      mediaName: messages.mediaName,
      mediaMime: messages.mediaMime,
      uploadId: messages.uploadId,
      createdAt: messages.createdAt,
      completedAt: messages.completedAt,
    })
    .from(messages)
    .where(and(eq(messages.userId, userId), inThread))
    .orderBy(asc(messages.createdAt), asc(messages.id))
  return activeBranch(rows).map(({ row: m }) => {
    const { parentId: _parent, selectedAt: _selected, ...rest } = m
    return {
      ...rest,
      // A reply still being written is shared as it stands.
      status: m.status === 'streaming' ? 'interrupted' : m.status,
      co2Impact: co2Of(m.co2Impact),
      createdAt: m.createdAt.toISOString(),
      completedAt: m.completedAt?.toISOString() ?? null,
    }
  })
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
      // One chain, each exchange following the one before (decision 012); copies, not sends: no
      // tree for the reader, and their CO2 stays counted once, the owner's.
      const ids = share.exchanges.map(() => randomUUID())
      await tx.insert(messages).values(
        share.exchanges.map((e, i) => {
          const uploadId = e.uploadId ? (copies.get(e.uploadId) ?? null) : null
          return {
            id: ids[i],
            parentId: i === 0 ? null : ids[i - 1],
            // The chain is the thread's shown branch (docs/decisions/021).
            depth: i,
            shown: true,
            origin: 'copy' as const,
            selectedAt: now,
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
            mediaName: uploadId ? (e.mediaName ?? null) : null,
            mediaMime: uploadId ? (e.mediaMime ?? null) : null,
            modelId: e.modelId ?? null,
            createdAt: new Date(e.createdAt),
            completedAt: new Date(e.completedAt ?? e.createdAt),
          }
        }),
      )
    }
    return thread
  })
}
