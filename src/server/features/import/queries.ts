import { randomUUID } from 'node:crypto'
import { and, eq, gte, inArray, isNull, like } from 'drizzle-orm'
import { UPLOAD_TYPES } from '#contract/attachments.ts'
import type { Db } from '#server/db/client.ts'
import { messages, threads, uploads } from '#server/db/schema/index.ts'
import { shownEnd, showRows } from '#server/features/chat/shown-branch.ts'
import { importedBranch, importedOrigin, importedTree } from './imported-tree.ts'
import type { ImportedThread } from './parse.ts'

// Files a Loris export may bring back: the types an upload may have.
const FILE_TYPES: Record<'image' | 'document', Set<string>> = {
  image: new Set(UPLOAD_TYPES.image),
  document: new Set(UPLOAD_TYPES.document),
}

/** The files an import has written to storage so far, by their path in the export (files/...). */
export interface ImportFiles {
  stored: Map<string, { key: string; size: number }>
  /** Files the export carried but the import left out, past the files' budget (parse-worker.mjs). */
  overBudget: Set<string>
  /** Marks a stored object as just used (storage.keep): false when it is gone. */
  keep(key: string): Promise<boolean>
}

export type StoreResult =
  | { ok: true; messages: number; files: number; filesLeftOut: number; filesOverBudget: number }
  | { ok: false; reason: string }

/**
 * The import_source of a thread whose import is still being written (decision 046):
 * `importing:<depth of its first imported turn>:<source>`. The thread takes its real source in
 * the statement that ends its import; one left so by a stopped server is removed by the owner's
 * next import (removeUnfinishedImports).
 */
const UNFINISHED = 'importing:'
const unfinishedSource = (firstDepth: number, source: string) => `${UNFINISHED}${firstDepth}:${source}`

/**
 * The rows written per transaction: on the embedded database a transaction holds it for
 * everyone, and a row costs about a microsecond per byte of its text (the search vector and its
 * index), so a batch of this much holds it for tens of milliseconds (decision 046;
 * `npm run bench import-stall` measures the holds).
 */
export const IMPORT_BATCH = { rows: 50, textBytes: 32 * 1024 }

/** Lets the statements other requests queued run before the next batch. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** The messages from `at` that fit one batch: at least one, however long it is. */
function batchEnd(t: ImportedThread, at: number): number {
  let end = at
  let bytes = 0
  while (end < t.messages.length && end - at < IMPORT_BATCH.rows) {
    const m = t.messages[end] as ImportedThread['messages'][number]
    bytes += m.content.length + m.response.length
    if (end > at && bytes > IMPORT_BATCH.textBytes) break
    end++
  }
  return end
}

interface Claimed {
  threadId: string
  /** The account's Default thread, which the import fills: removing the import keeps the thread. */
  filledDefault: boolean
  firstDepth: number
  pending: string
  /** The shown leaf the import's first turn follows (Default's), or none. */
  root: string | null
}

/**
 * Removes what an unfinished import of one thread wrote, a batch of rows per statement: its
 * imported messages (never what the person sent meanwhile), then the thread (or, for Default,
 * only its mark), then the uploads rows its files got.
 */
async function removeImported(db: Db, c: Claimed, uploadIds: string[]): Promise<void> {
  for (;;) {
    const rows = await db
      .select({ id: messages.id })
      .from(messages)
      .where(
        and(
          eq(messages.threadId, c.threadId),
          gte(messages.depth, c.firstDepth),
          inArray(messages.origin, ['import', 'copy']),
        ),
      )
      .limit(IMPORT_BATCH.rows)
    if (rows.length === 0) break
    await db.delete(messages).where(
      inArray(
        messages.id,
        rows.map((r) => r.id),
      ),
    )
    await nextTurn()
  }
  if (c.filledDefault)
    await db
      .update(threads)
      .set({ importSource: null })
      .where(and(eq(threads.id, c.threadId), eq(threads.importSource, c.pending)))
  else await db.delete(threads).where(and(eq(threads.id, c.threadId), eq(threads.importSource, c.pending)))
  for (let at = 0; at < uploadIds.length; at += IMPORT_BATCH.rows)
    await db.delete(uploads).where(inArray(uploads.id, uploadIds.slice(at, at + IMPORT_BATCH.rows)))
}

/**
 * What imports of this user left unfinished (the server stopped during one): removed before the
 * next, so a retry imports those threads whole. Called while the user's one import slot is held
 * (import-slots.ts), so none of these is still being written by this process.
 */
export async function removeUnfinishedImports(db: Db, userId: string): Promise<number> {
  const left = await db
    .select({ id: threads.id, isDefault: threads.isDefault, source: threads.importSource })
    .from(threads)
    .where(and(eq(threads.userId, userId), like(threads.importSource, `${UNFINISHED}%`)))
  for (const t of left) {
    const firstDepth = Number.parseInt((t.source as string).slice(UNFINISHED.length), 10) || 0
    await removeImported(
      db,
      { threadId: t.id, filledDefault: t.isDefault, firstDepth, pending: t.source as string, root: null },
      [],
    )
  }
  return left.length
}

function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e)
    if (e.code === '23505') return true
  return false
}

type Stored = Exclude<StoreResult, { ok: false }>

/**
 * Stores one imported thread with its messages (and the files they name), a batch of rows per
 * transaction so that no other request waits long for the database, however long the thread
 * (decision 046). Until its last statement the thread is marked unfinished (unfinishedSource);
 * a batch the database refuses removes what the others wrote before the error is thrown. A thread
 * whose source this user already imported is left alone (threads_import_source_idx), so a second
 * import of the same file creates nothing. An exported Default thread fills the account's own
 * Default thread the first time.
 */
export async function storeImportedThread(
  db: Db,
  userId: string,
  t: ImportedThread,
  files: ImportFiles,
  /** The project a new thread joins (restore-projects.ts); Default never joins one. */
  projectId: string | null = null,
): Promise<StoreResult> {
  const claimed = await db.transaction(async (tx): Promise<Claimed | null> => {
    const [existing] = await tx
      .select({ id: threads.id })
      .from(threads)
      .where(and(eq(threads.userId, userId), eq(threads.importSource, t.source)))
    if (existing) return null
    if (t.isDefault) {
      const [def] = await tx
        .select({ id: threads.id })
        .from(threads)
        .where(and(eq(threads.userId, userId), eq(threads.isDefault, true), isNull(threads.importSource)))
      if (def) {
        // An import filling Default follows what it shows now, so both stay shown.
        const end = await shownEnd(tx, def.id)
        const firstDepth = end ? end.depth + 1 : 0
        const pending = unfinishedSource(firstDepth, t.source)
        await tx
          .update(threads)
          .set({ importSource: pending, lastMessageAt: new Date(t.lastMessageAt), chatModel: t.chatModel })
          .where(eq(threads.id, def.id))
        return { threadId: def.id, filledDefault: true, firstDepth, pending, root: end?.id ?? null }
      }
      // A Default already filled by another import: this one becomes a thread of its own.
    }
    const pending = unfinishedSource(0, t.source)
    const [row] = await tx
      .insert(threads)
      .values({
        userId,
        title: t.isDefault ? `${t.title} (imported)` : t.title,
        chatModel: t.chatModel,
        isFavorite: t.isFavorite,
        projectId,
        createdAt: new Date(t.createdAt),
        lastMessageAt: new Date(t.lastMessageAt),
        importSource: pending,
      })
      // The same source being imported at this moment (another server on the same database).
      .onConflictDoNothing()
      .returning({ id: threads.id })
    if (!row) return null
    return { threadId: row.id, filledDefault: false, firstDepth: 0, pending, root: null }
  })
  if (!claimed) return { ok: false, reason: 'already imported' }
  const uploadIds: string[] = []
  try {
    const stored = await storeMessages(db, userId, t, files, claimed, uploadIds)
    // The last statement: the thread is whole. Another import of the same source that finished
    // first (another server on the same database) holds the source: this one is removed.
    try {
      await db
        .update(threads)
        .set({ importSource: t.source })
        .where(and(eq(threads.id, claimed.threadId), eq(threads.importSource, claimed.pending)))
    } catch (err) {
      if (!isUniqueViolation(err)) throw err
      await removeImported(db, claimed, uploadIds)
      return { ok: false, reason: 'already imported' }
    }
    return stored
  } catch (err) {
    // The error that failed the thread is the one to report; what a failed removal leaves is
    // removed by this person's next import.
    await removeImported(db, claimed, uploadIds).catch(() => {})
    throw err
  }
}

/** The messages of a claimed thread, a batch per transaction, each with its file's uploads row. */
async function storeMessages(
  db: Db,
  userId: string,
  t: ImportedThread,
  files: ImportFiles,
  claimed: Claimed,
  uploadIds: string[],
): Promise<Stored> {
  const tree = importedTree(t, claimed.root)
  const branch = importedBranch(t, tree, claimed.root, claimed.firstDepth - 1)
  let stored = 0
  let leftOut = 0
  let overBudget = 0
  for (let at = 0; at < t.messages.length; ) {
    const end = batchEnd(t, at)
    // A message's file comes back as an upload of this user when the export carried it.
    const media = new Map<
      number,
      { uploadId: string; mediaType: 'image' | 'document'; name: string; mimeType: string }
    >()
    const uploadRows: Array<typeof uploads.$inferInsert> = []
    for (let i = at; i < end; i++) {
      const a = (t.messages[i] as ImportedThread['messages'][number]).attachment
      if (!a) continue
      const file = a.path ? files.stored.get(a.path) : undefined
      if (!file && a.path && files.overBudget.has(a.path)) {
        overBudget++
        continue
      }
      // Written when it arrived; marked as just used, so the storage's grace (which spares an
      // object until its row is inserted) counts from here, however long the import has run.
      if (
        !file ||
        a.kind === 'audio' ||
        !FILE_TYPES[a.kind].has(a.mimeType) ||
        !(await files.keep(file.key))
      ) {
        leftOut++
        continue
      }
      const id = randomUUID()
      uploadRows.push({
        id,
        userId,
        storageKey: file.key,
        mimeType: a.mimeType,
        kind: a.kind,
        fileName: a.fileName,
        size: file.size,
      })
      media.set(i, { uploadId: id, mediaType: a.kind, name: a.fileName, mimeType: a.mimeType })
    }
    const rows = t.messages.slice(at, end).map((m, j) => {
      const i = at + j
      const file = media.get(i)
      const createdAt = new Date(m.createdAt)
      return {
        id: tree.ids[i],
        parentId: tree.parents[i] ?? null,
        depth: branch.depth[i],
        origin: importedOrigin(m.origin),
        selectedAt: m.selectedAt ? new Date(m.selectedAt) : createdAt,
        userId,
        threadId: claimed.threadId,
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
        // As a reply stores them: null when it looked nothing up.
        sources: m.sources.length > 0 ? m.sources : null,
        toolSteps: m.toolSteps.length > 0 ? m.toolSteps : null,
        uploadId: file?.uploadId ?? null,
        mediaType: file?.mediaType ?? null,
        mediaUrl: file ? `/api/uploads/${file.uploadId}` : null,
        mediaName: file?.name ?? null,
        mediaMime: file?.mimeType ?? null,
        createdAt,
        completedAt: m.completedAt ? new Date(m.completedAt) : null,
      }
    })
    uploadIds.push(...uploadRows.map((u) => u.id as string))
    // The imported branch's turns among these rows (imported-tree.ts importedBranch).
    const shown = rows.flatMap((r, j) =>
      r.id && r.depth !== undefined && branch.shown[at + j] ? [{ id: r.id, depth: r.depth }] : [],
    )
    await db.transaction(async (tx) => {
      if (uploadRows.length > 0) await tx.insert(uploads).values(uploadRows)
      await tx.insert(messages).values(rows)
      await showRows(tx, claimed.threadId, shown)
    })
    stored += uploadRows.length
    at = end
    if (at < t.messages.length) await nextTurn()
  }
  return {
    ok: true,
    messages: t.messages.length,
    files: stored,
    filesLeftOut: leftOut,
    filesOverBudget: overBudget,
  }
}

/** The keys among `keys` that an uploads row uses (its file must stay). */
export async function storageKeysInUse(db: Db, keys: string[]): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ key: uploads.storageKey })
    .from(uploads)
    .where(inArray(uploads.storageKey, keys))
  return new Set(rows.map((r) => r.key))
}
