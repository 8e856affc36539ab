import { randomUUID } from 'node:crypto'
import { and, eq, inArray, isNull } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { messages, threads, uploads } from '#server/db/schema/index.ts'
import { reshowThread, shownLeaf } from '#server/features/chat/shown-branch.ts'
import type { ImportedThread } from './parse.ts'

// Files a Loris export may bring back: the types an upload may have (contract/attachments.ts).
const FILE_TYPES: Record<'image' | 'document', Set<string>> = {
  image: new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/svg+xml']),
  document: new Set([
    'application/pdf',
    'application/msword',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'text/plain',
    'text/csv',
    'application/vnd.ms-excel',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ]),
}

export interface ImportFiles {
  bytes: Map<string, Uint8Array>
  /** Files the export carried but the import left out, past the files' budget (parse-worker.mjs). */
  overBudget: Set<string>
  /** Writes a file to storage and returns its key (written-files.ts, which removes it on failure). */
  put(bytes: Uint8Array): Promise<string>
}

const BATCH = 500

export type StoreResult =
  | { ok: true; messages: number; files: number; filesLeftOut: number; filesOverBudget: number }
  | { ok: false; reason: string }

/**
 * Where each imported message goes in the thread's tree (decision 012): a Loris export's versions
 * keep their shape (each follows the exchange it followed there); anything else (ChatGPT, older
 * Loris exports) becomes one chain, each message following the one before, so all are shown.
 */
export function importedTree(t: Pick<ImportedThread, 'messages'>, root: string | null) {
  const ids = t.messages.map(() => randomUUID())
  const versioned = t.messages.some((m) => m.selectedAt)
  const byKey = new Map<string, string>()
  if (versioned)
    t.messages.forEach((m, i) => {
      if (m.key) byKey.set(m.key, ids[i] as string)
    })
  const parents = t.messages.map((m, i) => {
    if (!versioned) return i === 0 ? root : (ids[i - 1] as string)
    return (m.parentKey ? byKey.get(m.parentKey) : undefined) ?? root
  })
  return { ids, parents }
}

/**
 * Every imported exchange is 'import' (decision 040): the person wrote it, but not here, so it
 * counts as no message sent (the sent count, trees, the upgrade prompt), whatever the file says;
 * a crafted export of 'sent' exchanges planted a tree for every two. What is shown does not change:
 * versions come from the parents and selection times, not from the origin. Only 'copy' is kept,
 * which counts as no message either and keeps a copy's CO2 out of the history (counted once, at
 * its source).
 */
export const importedOrigin = (origin: string | null | undefined) =>
  origin === 'copy' ? ('copy' as const) : ('import' as const)

/**
 * Stores one imported thread with its messages, in one transaction. A thread whose source this
 * user already imported is left alone (threads_import_source_idx), so a second import of the
 * same file creates nothing. An exported Default thread fills the account's own Default thread
 * the first time.
 */
export async function storeImportedThread(
  db: Db,
  userId: string,
  t: ImportedThread,
  files: ImportFiles,
): Promise<StoreResult> {
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: threads.id })
      .from(threads)
      .where(and(eq(threads.userId, userId), eq(threads.importSource, t.source)))
    if (existing) return { ok: false, reason: 'already imported' }

    let threadId: string | undefined
    // Where the import's first turn goes: after what the thread shows (an existing Default's own).
    let root: string | null = null
    if (t.isDefault) {
      const [def] = await tx
        .update(threads)
        .set({ importSource: t.source, lastMessageAt: new Date(t.lastMessageAt), chatModel: t.chatModel })
        .where(and(eq(threads.userId, userId), eq(threads.isDefault, true), isNull(threads.importSource)))
        .returning({ id: threads.id })
      // A Default already filled by another import: this one becomes a thread of its own.
      threadId = def?.id
      // An import filling Default follows what it shows now, so both stay shown.
      if (threadId) root = await shownLeaf(tx, threadId)
    }
    if (!threadId) {
      const [row] = await tx
        .insert(threads)
        .values({
          userId,
          title: t.isDefault ? `${t.title} (imported)` : t.title,
          chatModel: t.chatModel,
          isFavorite: t.isFavorite,
          createdAt: new Date(t.createdAt),
          lastMessageAt: new Date(t.lastMessageAt),
          importSource: t.source,
        })
        .onConflictDoNothing()
        .returning({ id: threads.id })
      if (!row) return { ok: false, reason: 'already imported' }
      threadId = row.id
    }
    // A message's file comes back as an upload of this user when the export carried it.
    let stored = 0
    let leftOut = 0
    let overBudget = 0
    const media = new Map<
      number,
      { uploadId: string; mediaType: 'image' | 'document'; name: string; mimeType: string }
    >()
    for (const [i, m] of t.messages.entries()) {
      const a = m.attachment
      if (!a) continue
      const bytes = a.path ? files.bytes.get(a.path) : undefined
      if (!bytes && a.path && files.overBudget.has(a.path)) {
        overBudget++
        continue
      }
      if (!bytes || a.kind === 'audio' || !FILE_TYPES[a.kind].has(a.mimeType)) {
        leftOut++
        continue
      }
      const storageKey = await files.put(bytes)
      const [upload] = await tx
        .insert(uploads)
        .values({
          userId,
          storageKey,
          mimeType: a.mimeType,
          kind: a.kind,
          fileName: a.fileName,
          size: bytes.length,
        })
        .returning({ id: uploads.id })
      if (upload) {
        media.set(i, { uploadId: upload.id, mediaType: a.kind, name: a.fileName, mimeType: a.mimeType })
        stored++
      }
    }
    const tree = importedTree(t, root)
    for (let at = 0; at < t.messages.length; at += BATCH) {
      await tx.insert(messages).values(
        t.messages.slice(at, at + BATCH).map((m, j) => {
          const file = media.get(at + j)
          const createdAt = new Date(m.createdAt)
          return {
            id: tree.ids[at + j],
            parentId: tree.parents[at + j] ?? null,
            origin: importedOrigin(m.origin),
            selectedAt: m.selectedAt ? new Date(m.selectedAt) : createdAt,
            userId,
            threadId,
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
            uploadId: file?.uploadId ?? null,
            mediaType: file?.mediaType ?? null,
            mediaUrl: file ? `/api/uploads/${file.uploadId}` : null,
            mediaName: file?.name ?? null,
            mediaMime: file?.mimeType ?? null,
            createdAt,
            completedAt: m.completedAt ? new Date(m.completedAt) : null,
          }
        }),
      )
    }
    // The imported tree's shown branch, marked on its rows (docs/decisions/021).
    await reshowThread(tx, threadId)
    return {
      ok: true,
      messages: t.messages.length,
      files: stored,
      filesLeftOut: leftOut,
      filesOverBudget: overBudget,
    }
  })
}

/** The keys among `keys` that an uploads row uses (its file must stay). */
export async function storageKeysInUse(db: Db, keys: string[]): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ key: uploads.storageKey })
    .from(uploads)
    .where(inArray(uploads.storageKey, keys))
  return new Set(rows.map((r) => r.key))
}
