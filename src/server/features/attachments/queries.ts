// The only code touching the uploads table.
import { and, eq, inArray, notExists, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { messages, uploads } from '#server/db/schema/index.ts'

export type UploadRow = typeof uploads.$inferSelect
export type NewUpload = typeof uploads.$inferInsert

export async function insertUpload(db: Db, values: NewUpload): Promise<UploadRow> {
  const [row] = await db.insert(uploads).values(values).returning()
  if (!row) throw new Error('insert into uploads returned nothing')
  return row
}

export async function findOwnedUpload(db: Db, userId: string, id: string): Promise<UploadRow | undefined> {
  const [row] = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, id), eq(uploads.userId, userId)))
  return row
}

const unreferenced = (db: Db) =>
  notExists(db.select({ one: sql`1` }).from(messages).where(eq(messages.uploadId, uploads.id)))

/** Deletes the upload unless a message refers to it; the storage key when it was deleted. */
export async function deleteIfUnreferenced(db: Db, id: string): Promise<string | null> {
  const [row] = await db
    .delete(uploads)
    .where(and(eq(uploads.id, id), unreferenced(db)))
    .returning({ key: uploads.storageKey })
  return row?.key ?? null
}

/** Deletes the user's uploads no message refers to any more; their storage keys. */
export async function deleteOrphanUploads(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .delete(uploads)
    .where(and(eq(uploads.userId, userId), unreferenced(db)))
    .returning({ key: uploads.storageKey })
  return rows.map((r) => r.key)
}

/** The keys among `keys` that no uploads row uses. */
export async function keysWithoutUploads(db: Db, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return []
  const used = await db
    .selectDistinct({ key: uploads.storageKey })
    .from(uploads)
    .where(inArray(uploads.storageKey, keys))
  const inUse = new Set(used.map((r) => r.key))
  return [...new Set(keys)].filter((k) => !inUse.has(k))
}
