// Single-use links mailed to a person: verify an address, reset a password. The link carries a
// random token; the table holds only its HMAC, an expiry and when it was used (decision 010).
import { randomBytes } from 'node:crypto'
import { and, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm'
import type { Db, Tx } from '#server/db/client.ts'
import { accountTokens } from '#server/db/schema/index.ts'
import { hashToken } from './session.ts'

/**
 * `recover_account`: mailed to the address an account had before an e-mail change. Whoever holds
 * that mailbox takes the account back: the address restored, a new password, every device out.
 */
export type TokenPurpose = 'verify_email' | 'reset_password' | 'recover_account'

export const TOKEN_TTL_MINUTES: Record<TokenPurpose, number> = {
  verify_email: 24 * 60,
  reset_password: 30,
  // Long enough to notice a changed address after a holiday.
  recover_account: 7 * 24 * 60,
}

/**
 * A fresh token for `purpose`. Earlier unused tokens of the same purpose stop working, so only
 * the newest mail's link counts (a resend or a second reset request supersedes the first). A
 * recovery link supersedes only an earlier one for the same address: after changes A → B → C,
 * the owner of A can still take the account back.
 */
export async function issueToken(
  db: Db,
  secret: string,
  values: { userId: string; purpose: TokenPurpose; email: string; now: Date },
): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  const expiresAt = new Date(values.now.getTime() + TOKEN_TTL_MINUTES[values.purpose] * 60_000)
  await db.transaction(async (tx) => {
    await tx
      .update(accountTokens)
      .set({ usedAt: values.now })
      .where(
        and(
          eq(accountTokens.userId, values.userId),
          eq(accountTokens.purpose, values.purpose),
          values.purpose === 'recover_account' ? eq(accountTokens.email, values.email) : undefined,
          isNull(accountTokens.usedAt),
        ),
      )
    await tx.insert(accountTokens).values({
      id: hashToken(secret, `${values.purpose}:${token}`),
      userId: values.userId,
      purpose: values.purpose,
      email: values.email,
      expiresAt,
    })
  })
  return token
}

/**
 * Whether `token` is an unused, unexpired link for one of `purposes`, without using it: a cheap
 * refusal before costly work (a password's hash) that the link's use then waits on.
 */
export async function tokenIsLive(
  db: Db,
  secret: string,
  purposes: TokenPurpose[],
  token: string,
  now: Date,
): Promise<boolean> {
  const ids = purposes.map((purpose) => hashToken(secret, `${purpose}:${token}`))
  const [row] = await db
    .select({ id: accountTokens.id })
    .from(accountTokens)
    .where(
      and(inArray(accountTokens.id, ids), isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, now)),
    )
    .limit(1)
  return Boolean(row)
}

/**
 * Marks the token used and returns what it was issued for, or null when it is unknown, expired
 * or already used. One UPDATE ... RETURNING: two clicks at once cannot both succeed.
 */
export async function consumeToken(
  db: Db | Tx,
  secret: string,
  purpose: TokenPurpose,
  token: string,
  now: Date,
): Promise<{ userId: string; email: string } | null> {
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.id, hashToken(secret, `${purpose}:${token}`)),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
      ),
    )
    .returning({ userId: accountTokens.userId, email: accountTokens.email })
  return row ?? null
}

/**
 * Every outstanding link of the user stops working (the account changed hands or password), but
 * for the recovery links of earlier addresses unless `recoveries` says so: a password reset
 * through the current address (perhaps by whoever changed it) must not take them away.
 */
export async function revokeTokens(
  db: Db | Tx,
  userId: string,
  now: Date,
  { recoveries = false }: { recoveries?: boolean } = {},
): Promise<void> {
  await db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.userId, userId),
        isNull(accountTokens.usedAt),
        recoveries ? undefined : ne(accountTokens.purpose, 'recover_account'),
      ),
    )
}

export async function pruneAccountTokens(db: Db): Promise<void> {
  await db.delete(accountTokens).where(sql`${accountTokens.expiresAt} < now() - interval '1 day'`)
}
