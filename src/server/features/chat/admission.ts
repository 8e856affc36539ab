// Whether a send may start a reply: the per-minute send budget, the replies a user may have
// generating at once, and the usage limit. The last two are decided inside the transaction that
// stores the message, so parallel sends (on one node or many) cannot all pass the check before any
// is charged. docs/decisions/009-limits-and-leases.md
import { and, count, eq, gt, sql } from 'drizzle-orm'
import type { Db, Tx } from '#server/db/client.ts'
import { messages, users } from '#server/db/schema/index.ts'
import { AppError } from '#server/lib/app-error.ts'
import { enforceRateLimit } from '#server/lib/rate-limit.ts'
import { LEASE_MS } from './lease.ts'

/** Replies one user may have generating at the same time. */
export const MAX_GENERATING_PER_USER = 3
/** Sends one user may make per minute (a person types far slower; a script does not). */
export const SENDS_PER_MINUTE = 20
/** Retry-After for the concurrency refusal: replies usually end within seconds. */
const BUSY_RETRY_SECONDS = 5

/** What a send asks of the user's usage, and how to refuse it. */
export interface UsageClaim {
  /** Input characters the send will be charged (usage.ts inputCharsOf). */
  chars: number
  /** The user's limit for the plan they are on now. */
  limit: number
  /** The existing usage refusal (429 rate_limited:usage with its reset date). */
  refusal: () => AppError
}

/** The per-minute send budget, shared by every node through the rate_limits table. */
export async function spendSendBudget(db: Db, userId: string): Promise<void> {
  await enforceRateLimit(db, `send:${userId}`, {
    limit: SENDS_PER_MINUTE,
    windowSeconds: 60,
    message: (s) =>
      `You are sending messages faster than Loris can answer them. Please wait ${s} seconds and send again; your message is still in the box.`,
  })
}

/**
 * Run inside the transaction that stores (or restarts) the message, before the row is written.
 * One statement checks the limit and reserves the input characters; it also locks the user's row,
 * so the count of replies generating that follows sees every send that was admitted before it.
 * Throws (rolling the transaction back, reservation included) when the send must be refused.
 */
export async function admit(tx: Tx, userId: string, claim: UsageClaim): Promise<void> {
  const used = sql`${users.aiInputChars} + ${users.aiOutputChars}`
  // A send is taken when it fits in what is left, or when nothing else is in flight and the
  // limit is not reached yet (the spec's rule for one send at a time: the last one may go over).
  const reserved = await tx
    .update(users)
    .set({ aiReservedChars: sql`${users.aiReservedChars} + ${claim.chars}` })
    .where(
      and(
        eq(users.id, userId),
        sql`${used} < ${claim.limit}`,
        sql`(${users.aiReservedChars} = 0 or ${used} + ${users.aiReservedChars} + ${claim.chars} <= ${claim.limit})`,
      ),
    )
    .returning({ id: users.id })
  if (reserved.length === 0) throw claim.refusal()

  const [row] = await tx
    .select({ n: count() })
    .from(messages)
    .where(
      and(
        eq(messages.userId, userId),
        eq(messages.status, 'streaming'),
        // A reply whose node died does not hold a place (the sweep finishes it).
        gt(messages.heartbeatAt, sql`now() - make_interval(secs => ${LEASE_MS / 1000})`),
      ),
    )
  if ((row?.n ?? 0) >= MAX_GENERATING_PER_USER) {
    throw new AppError(
      'rate_limited:concurrency',
      `You already have ${MAX_GENERATING_PER_USER} replies being written. Wait for one to finish, then send again; your message is still in the box.`,
      { headers: { 'Retry-After': String(BUSY_RETRY_SECONDS) } },
    )
  }
}
