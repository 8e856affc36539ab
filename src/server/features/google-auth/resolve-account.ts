import type { GoogleAuthError } from '#contract/account.ts'
import type { Db } from '#server/db/client.ts'
import { createAccount, findUserByEmail } from '#server/features/auth/queries.ts'
import type { UserRow } from '#server/lib/context.ts'
import { findUserByGoogleId, linkGoogleId, unlessTaken } from './queries.ts'

export interface GoogleIdentity {
  sub: string
  email?: string
  emailVerified: boolean
}

export type Resolution =
  | { ok: true; user: UserRow; outcome: 'returning' | 'linked' | 'taken_over' | 'created' }
  | { ok: false; error: GoogleAuthError }

/**
 * Decision 005: the Google subject is the identity. An existing Loris account is linked by
 * e-mail only when Google vouches for that address (email_verified), since otherwise anyone
 * could claim someone else's account; for the same reason no account is created for an
 * unverified address. An existing account whose address Loris never verified is joined only
 * after every other way in is closed (linkGoogleId, decision 010).
 */
/** `mayCreate`, when given, decides whether an address without an account may have one made. */
export async function resolveGoogleAccount(
  db: Db,
  id: GoogleIdentity,
  mayCreate?: (email: string) => Promise<boolean>,
): Promise<Resolution> {
  const known = await findUserByGoogleId(db, id.sub)
  if (known) return { ok: true, user: known, outcome: 'returning' }
  const email = id.email?.trim().toLowerCase()
  if (!email) return { ok: false, error: 'no_email' }
  if (!id.emailVerified) return { ok: false, error: 'unverified_email' }

  // Two attempts: a concurrent sign-in may create or link the account between our reads.
  for (let attempt = 0; attempt < 2; attempt++) {
    const existing = await findUserByEmail(db, email)
    if (existing) {
      if (existing.googleId) {
        return existing.googleId === id.sub
          ? { ok: true, user: existing, outcome: 'returning' }
          : { ok: false, error: 'linked_elsewhere' }
      }
      const linked = await linkGoogleId(db, existing, id.sub)
      if (linked)
        return { ok: true, user: linked, outcome: existing.emailVerifiedAt ? 'linked' : 'taken_over' }
    } else {
      if (mayCreate && !(await mayCreate(email))) return { ok: false, error: 'invite_only' }
      const created = await unlessTaken(
        createAccount(db, { email, googleId: id.sub, emailVerifiedAt: new Date() }),
      )
      if (created) return { ok: true, user: created, outcome: 'created' }
    }
    const raced = await findUserByGoogleId(db, id.sub)
    if (raced) return { ok: true, user: raced, outcome: 'returning' }
  }
  return { ok: false, error: 'failed' }
}
