import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm'
import type { Context } from 'hono'
import { getCookie } from 'hono/cookie'
import type { Db } from '#server/db/client.ts'
import { accountTokens, sessions, users } from '#server/db/schema/index.ts'
import type { AppDeps, UserRow } from '#server/lib/context.ts'
import { hashToken, SESSION_COOKIE } from '#server/lib/session.ts'

export async function findUserByGoogleId(db: Db, googleId: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.googleId, googleId))
  return row
}

const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } }
  return e?.code === '23505' || e?.cause?.code === '23505'
}

/** Undefined instead of an error when a unique index refused the write (a lost race). */
export async function unlessTaken<T>(write: Promise<T>): Promise<T | undefined> {
  try {
    return await write
  } catch (err) {
    if (isUniqueViolation(err)) return undefined
    throw err
  }
}

/**
 * Links only an account that has no Google identity yet; undefined when that race was lost.
 * Google vouches for the address, so it becomes verified. When it was not verified before,
 * whoever typed that address may not be its owner (pre-hijacking, decision 010): in the same
 * transaction the password stops working, every session ends and every mailed link dies.
 */
export async function linkGoogleId(
  db: Db,
  user: Pick<UserRow, 'id' | 'email' | 'emailVerifiedAt'>,
  googleId: string,
): Promise<UserRow | undefined> {
  const takeOver = user.emailVerifiedAt === null
  return unlessTaken(
    db.transaction(async (tx) => {
      const [linked] = await tx
        .update(users)
        .set(
          takeOver
            ? {
                googleId,
                passwordHash: null,
                emailVerifiedAt: sql`now()`,
                // Every session is ended, including one whose sign-in is still being checked.
                sessionEpoch: sql`${users.sessionEpoch} + 1`,
              }
            : { googleId },
        )
        .where(
          and(
            eq(users.id, user.id),
            // Still the address Google vouched for (not changed in the meantime).
            eq(users.email, user.email),
            isNull(users.googleId),
            // The state we decided on: a concurrent verification makes this a lost race, retried.
            takeOver ? isNull(users.emailVerifiedAt) : isNotNull(users.emailVerifiedAt),
          ),
        )
        .returning()
      if (!linked) return undefined
      if (takeOver) {
        await tx.delete(sessions).where(eq(sessions.userId, user.id))
        await tx
          .update(accountTokens)
          .set({ usedAt: sql`now()` })
          .where(and(eq(accountTokens.userId, user.id), isNull(accountTokens.usedAt)))
      }
      return linked
    }),
  )
}

/**
 * Ends the session this browser had before signing in with Google. Only the row: the new
 * session cookie replaces the old one, and a second Set-Cookie deleting it would be noise.
 */
export async function dropPreviousSession(c: Context, deps: AppDeps): Promise<void> {
  const token = getCookie(c, SESSION_COOKIE)
  if (!token) return
  await deps.database.db.delete(sessions).where(eq(sessions.id, hashToken(deps.secret, token)))
}
