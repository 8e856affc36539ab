// Sign-up invitations an operator mails to an address (the waitlist's Invite). The link carries a
// random token; the table keeps only its HMAC. With SIGNUP=invite, registering needs one: by
// e-mail and password with the link's token, or with Google for an address holding an open invite.
import { randomBytes } from 'node:crypto'
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Db, Tx } from '#server/db/client.ts'
import { invites } from '#server/db/schema/index.ts'
import { hashToken } from './session.ts'

export const INVITE_DAYS = 14

const inviteId = (secret: string, token: string) => hashToken(secret, `invite:${token}`)

/** A new single-use link for `email`; earlier open invites for the address stop working. */
export async function issueInvite(
  db: Db,
  secret: string,
  values: { email: string; invitedBy: string; now: Date },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url')
  const expiresAt = new Date(values.now.getTime() + INVITE_DAYS * 86_400_000)
  await db.transaction(async (tx) => {
    await tx
      .update(invites)
      .set({ usedAt: values.now })
      .where(and(eq(invites.email, values.email), isNull(invites.usedAt)))
    await tx.insert(invites).values({
      id: inviteId(secret, token),
      email: values.email,
      invitedBy: values.invitedBy,
      expiresAt,
    })
  })
  return { token, expiresAt }
}

/**
 * Uses the invite `token` for `email`, in the transaction that creates the account: true when it
 * was open, unexpired and for this address (then no one can use it again).
 */
export async function claimInvite(
  tx: Db | Tx,
  secret: string,
  token: string,
  email: string,
): Promise<boolean> {
  const used = await tx
    .update(invites)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(invites.id, inviteId(secret, token)),
        eq(invites.email, email),
        isNull(invites.usedAt),
        gt(invites.expiresAt, sql`now()`),
      ),
    )
    .returning({ id: invites.id })
  return used.length > 0
}

/** Uses the newest open invite for `email`, whatever its token: Google vouches for the address. */
export async function claimInviteFor(tx: Db | Tx, email: string): Promise<boolean> {
  const used = await tx
    .update(invites)
    .set({ usedAt: sql`now()` })
    .where(and(eq(invites.email, email), isNull(invites.usedAt), gt(invites.expiresAt, sql`now()`)))
    .returning({ id: invites.id })
  return used.length > 0
}
