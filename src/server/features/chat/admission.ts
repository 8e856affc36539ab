// Whether a send may start a reply: the per-minute send budget, the replies a user may have
// generating at once, and the usage limit. All three are decided in the statement that stores the
// message (send-statement.ts), on the rows they update, so parallel sends (on one node or many)
// cannot all pass the check before any is charged. docs/decisions/009 and 021.
import { and, eq, sql } from 'drizzle-orm'
import type { Db, Tx } from '#server/db/client.ts'
import { users } from '#server/db/schema/index.ts'
import { AppError } from '#server/lib/app-error.ts'
import { enforceRateLimit } from '#server/lib/rate-limit.ts'

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

const budgetMessage = (s: number) =>
  `You are sending messages faster than Loris can answer them. Please wait ${s} seconds and send again; your message is still in the box.`

/** The per-minute send budget, shared by every node through the rate_limits table. */
export async function spendSendBudget(db: Db, userId: string): Promise<void> {
  await enforceRateLimit(db, `send:${userId}`, {
    limit: SENDS_PER_MINUTE,
    windowSeconds: 60,
    message: budgetMessage,
  })
}

/** The refusal of a send over the budget (the same one enforceRateLimit gives). */
export function budgetRefusal(retryAfter: number): AppError {
  return new AppError('rate_limited:request', budgetMessage(retryAfter), {
    headers: { 'Retry-After': String(retryAfter) },
  })
}

/** The refusal when a user already has the maximum of replies being written. */
export function busyRefusal(): AppError {
  return new AppError(
    'rate_limited:concurrency',
    `You already have ${MAX_GENERATING_PER_USER} replies being written. Wait for one to finish, then send again; your message is still in the box.`,
    { headers: { 'Retry-After': String(BUSY_RETRY_SECONDS) } },
  )
}

/**
 * Why an admission was refused, read from the user's row after the fact (refusals only: the
 * admission itself decided on the locked row). A send over the usage limit hears that first, as
 * it always did; one that would fit now was refused because too many replies were generating.
 */
export async function refusalFor(db: Db | Tx, userId: string, claim: UsageClaim): Promise<AppError> {
  const [row] = await db
    .select({
      used: sql<number>`${users.aiInputChars} + ${users.aiOutputChars}`,
      reserved: users.aiReservedChars,
      generating: users.aiGenerating,
    })
    .from(users)
    .where(eq(users.id, userId))
  if (!row) return claim.refusal()
  const used = Number(row.used)
  const fits = used < claim.limit && (row.reserved === 0 || used + row.reserved + claim.chars <= claim.limit)
  return fits && row.generating >= MAX_GENERATING_PER_USER ? busyRefusal() : claim.refusal()
}

/**
 * Run inside the transaction that restarts a failed message (a new send is admitted by its own
 * statement, send-statement.ts). One statement checks the usage limit and the replies generating
 * on the user's row and reserves both (PostgreSQL re-reads the row under its lock, so parallel
 * sends on any node are counted). False when it must refuse (refusalFor says why).
 */
export async function reserve(tx: Tx, userId: string, claim: UsageClaim): Promise<boolean> {
  const used = sql`${users.aiInputChars} + ${users.aiOutputChars}`
  // A send is taken when it fits in what is left, or when nothing else is in flight and the
  // limit is not reached yet (the spec's rule for one send at a time: the last one may go over).
  const reserved = await tx
    .update(users)
    .set({
      aiReservedChars: sql`${users.aiReservedChars} + ${claim.chars}`,
      aiGenerating: sql`${users.aiGenerating} + 1`,
    })
    .where(
      and(
        eq(users.id, userId),
        sql`${used} < ${claim.limit}`,
        sql`(${users.aiReservedChars} = 0 or ${used} + ${users.aiReservedChars} + ${claim.chars} <= ${claim.limit})`,
        sql`${users.aiGenerating} < ${MAX_GENERATING_PER_USER}`,
      ),
    )
    .returning({ id: users.id })
  return reserved.length > 0
}
