// The only code touching the shares table.
import { randomBytes, randomUUID } from 'node:crypto'
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm'
import { isChatModel } from '#contract/chat-models.ts'
import type { Db } from '#server/db/client.ts'
import { inThread, type ThreadRow } from '#server/db/owned-thread.ts'
import { messages, shares, threads, uploads } from '#server/db/schema/index.ts'
import { showRows } from '#server/features/chat/shown-branch.ts'
import { activeBranch } from '#server/lib/branch.ts'
import { co2Of, sourcesOf } from '#server/lib/stored-message.ts'
import {
  modelNamesOf,
  SERVER_ONLY_KEYS,
  type StoredExchange,
  shareFileUrl,
  storedSnapshotSchema,
} from './snapshot.ts'

export type ShareRow = typeof shares.$inferSelect

export const newShareToken = () => randomBytes(32).toString('base64url')

/**
 * The thread's exchanges as they stand now, oldest first (Default also holds thread-less ones):
 * the branch it shows, without the other versions (decision 012).
 */
export async function snapshotOf(db: Db, userId: string, thread: ThreadRow): Promise<StoredExchange[]> {
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
      sources: messages.sources,
    })
    .from(messages)
    .where(and(eq(messages.userId, userId), inThread(thread)))
    .orderBy(asc(messages.createdAt), asc(messages.id))
  return activeBranch(rows).map(({ row: m }) => {
    const { parentId: _parent, selectedAt: _selected, ...rest } = m
    return {
      ...rest,
      // A reply still being written is shared as it stands.
      status: m.status === 'streaming' ? 'interrupted' : m.status,
      co2Impact: co2Of(m.co2Impact),
      sources: sourcesOf(m.sources),
      createdAt: m.createdAt.toISOString(),
      completedAt: m.completedAt?.toISOString() ?? null,
    }
  })
}

/** A new link; `snapshotJson` is the snapshot's text, checked against the cap (snapshot.ts). */
export async function insertShare(
  db: Db,
  v: { userId: string; thread: ThreadRow; snapshotJson: string; allowIndexing: boolean },
): Promise<{ token: string }> {
  const [row] = await db
    .insert(shares)
    .values({
      token: newShareToken(),
      userId: v.userId,
      threadId: v.thread.id,
      title: v.thread.title,
      snapshot: sql`${v.snapshotJson}::jsonb`,
      allowIndexing: v.allowIndexing,
    })
    .returning({ token: shares.token })
  if (!row) throw new Error('insert into shares returned nothing')
  return row
}

/** The share with its exchanges parsed: only for a signed-in copy, never for a public read. */
export async function findShare(db: Db, token: string) {
  const [row] = await db.select().from(shares).where(eq(shares.token, token))
  if (!row) return undefined
  return { ...row, exchanges: storedSnapshotSchema.parse(row.snapshot) }
}

// The public reads below never bring the snapshot into JavaScript as an object: anyone with the
// link may ask for it again and again, and parsing it blocked the event loop (a 41 MB one, 0.3 s).

/** Stored keys are this code's own names (the schema's), written into the SQL as literals. */
const withoutServerKeys = sql.raw(
  SERVER_ONLY_KEYS.map((key) => {
    if (!/^[A-Za-z]+$/.test(key)) throw new Error(`unexpected snapshot key ${key}`)
    return ` - '${key}'`
  }).join(''),
)

/**
 * GET /api/shares/:token: the share's fields, and its exchanges as the JSON text PostgreSQL
 * writes, each as the contract's SharedExchange (snapshot.ts has the mapping's rules): the
 * server's keys removed, the file's URL through the token, the model's footer name, and a time
 * of completion (null in snapshots from before it was kept).
 */
export async function findSharedConversation(db: Db, token: string) {
  // The footer names are the contract's code: the few distinct models are read first.
  const [share] = await db
    .select({
      title: shares.title,
      createdAt: shares.createdAt,
      allowIndexing: shares.allowIndexing,
      models: sql<
        string | null
      >`(select json_agg(distinct jsonb_build_array(e->>'chatModel', e->>'modelId'))::text
        from jsonb_array_elements(${shares.snapshot}) e where e->>'modelId' <> '')`,
    })
    .from(shares)
    .where(eq(shares.token, token))
  if (!share) return undefined
  const names = JSON.stringify(
    modelNamesOf(share.models ? (JSON.parse(share.models) as [string, string][]) : []),
  )
  const [row] = await db
    .select({
      // json_agg writes each exchange's text as it goes: half the work of building one jsonb.
      exchanges: sql<string>`(select coalesce(json_agg(
          (e${withoutServerKeys}) || jsonb_build_object(
            'mediaUrl', case when coalesce(e->>'uploadId', '') = '' then null
              else ${shareFileUrl(token, '')}::text || (e->>'uploadId') end,
            'modelName', ${names}::jsonb -> (e->>'chatModel') -> (e->>'modelId'),
            'completedAt', e->'completedAt')
          order by i), '[]'::json)::text
        from jsonb_array_elements(${shares.snapshot}) with ordinality as x(e, i))`,
    })
    .from(shares)
    .where(eq(shares.token, token))
  if (!row) return undefined
  return { ...share, exchangesJson: row.exchanges }
}

/** Only what the page's card needs: the title, and the first exchange's opening words. */
export async function findShareHead(db: Db, token: string) {
  const first = sql`coalesce(nullif(${shares.snapshot}->0->>'content', ''), ${shares.snapshot}->0->>'response', '')`
  const [row] = await db
    .select({
      title: shares.title,
      allowIndexing: shares.allowIndexing,
      // Enough for the description's 200 characters once spaces are folded.
      opening: sql<string>`left(regexp_replace(${first}, '^[[:space:]]+', ''), 1000)`,
    })
    .from(shares)
    .where(eq(shares.token, token))
  return row
}

/** The share's owner, and whether its snapshot holds this upload (PostgreSQL's containment test). */
export async function findShareOfFile(db: Db, token: string, uploadId: string) {
  const [row] = await db
    .select({
      ownerId: shares.userId,
      holdsFile: sql<boolean>`${shares.snapshot} @> ${JSON.stringify([{ uploadId }])}::jsonb`,
    })
    .from(shares)
    .where(eq(shares.token, token))
  return row
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
 * `keep` marks each object as just used (storage.ts): the owner deleting the thread meanwhile
 * sees no row of the copy's yet, and spares a fresh object. One already gone is not copied.
 */
export async function copyShareToThread(
  db: Db,
  visitorId: string,
  share: NonNullable<Awaited<ReturnType<typeof findShare>>>,
  now: Date,
  keep: (storageKey: string) => Promise<boolean>,
) {
  return db.transaction(async (tx) => {
    const last = share.exchanges.at(-1)
    const [thread] = await tx
      .insert(threads)
      .values({
        userId: visitorId,
        title: share.title,
        chatModel: last && isChatModel(last.chatModel) ? last.chatModel : 'gemini',
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
      if (!(await keep(u.storageKey))) continue
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
      await showRows(
        tx,
        thread.id,
        ids.map((id, depth) => ({ id, depth })),
      )
    }
    return thread
  })
}
