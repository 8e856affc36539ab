import { eq } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { threads, users } from '#server/db/schema/index.ts'
import type { UserRow } from '#server/lib/context.ts'

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email))
  return row
}

/**
 * An account is born with its 'Default' thread (spec section 2), in one transaction, so no
 * user ever exists without one. Returns undefined when the e-mail is taken.
 */
export async function createAccount(
  db: Db,
  values: {
    email: string
    passwordHash?: string | null
    googleId?: string | null
    emailVerifiedAt?: Date | null
  },
): Promise<UserRow | undefined> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({
        email: values.email,
        passwordHash: values.passwordHash ?? null,
        googleId: values.googleId ?? null,
        emailVerifiedAt: values.emailVerifiedAt ?? null,
      })
      .onConflictDoNothing({ target: users.email })
      .returning()
    if (!user) return undefined
    await tx.insert(threads).values({ userId: user.id, title: 'Default', isDefault: true })
    return user
  })
}
