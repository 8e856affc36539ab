import { and, eq, ne } from 'drizzle-orm'
import type { Db, Tx } from '#server/db/client.ts'
import { uploads, users } from '#server/db/schema/index.ts'
import type { UserRow } from '#server/lib/context.ts'

export type UpdateEmailResult = { ok: true; user: UserRow } | { ok: false; reason: 'taken' | 'gone' }

const UNIQUE_VIOLATION = '23505'

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } }
  return e?.code === UNIQUE_VIOLATION || e?.cause?.code === UNIQUE_VIOLATION
}

/**
 * Changes the e-mail unless another account holds it; the unique index settles races. The new
 * address is unverified until its mailed link is opened (decision 010).
 */
export async function updateEmail(
  db: Db,
  userId: string,
  email: string,
  /** Work that commits with the change, or not at all (its security notice, decision 043). */
  andThen?: (tx: Tx, user: UserRow) => Promise<void>,
): Promise<UpdateEmailResult> {
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), ne(users.id, userId)))
  if (taken) return { ok: false, reason: 'taken' }
  try {
    return await db.transaction(async (tx): Promise<UpdateEmailResult> => {
      const [user] = await tx
        .update(users)
        .set({ email, emailVerifiedAt: null })
        .where(eq(users.id, userId))
        .returning()
      if (!user) return { ok: false, reason: 'gone' }
      await andThen?.(tx, user)
      return { ok: true, user }
    })
  } catch (err) {
    if (isUniqueViolation(err)) return { ok: false, reason: 'taken' }
    throw err
  }
}

/**
 * Deletes the user in one transaction; sessions, threads, messages, uploads and usage rows go
 * with it through the foreign keys' ON DELETE CASCADE. Returns the storage keys the user's
 * uploads pointed at, read in the same transaction, so a storage hook can remove the files.
 * Null when the user was already gone (a concurrent delete).
 */
export async function deleteUser(db: Db, userId: string): Promise<{ storageKeys: string[] } | null> {
  return db.transaction(async (tx) => {
    const rows = await tx.select({ key: uploads.storageKey }).from(uploads).where(eq(uploads.userId, userId))
    const [deleted] = await tx.delete(users).where(eq(users.id, userId)).returning({ id: users.id })
    if (!deleted) return null
    return { storageKeys: [...new Set(rows.map((r) => r.key))] }
  })
}
