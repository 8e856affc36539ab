// Whether a send may start a reply: the per-minute send budget, the replies a user may have
// generating at once, and the usage limit. All three are decided in the statement that stores the
// message (send-statement.ts), on the rows they update, so parallel sends (on one node or many)
// cannot all pass the check before any is charged. docs/decisions/009 and 021.
import { and, eq, type SQL, sql } from 'drizzle-orm'
import { PLAN_LIMITS } from '#contract/plan.ts'
import type { Db, Tx } from '#server/db/client.ts'
import { users } from '#server/db/schema/index.ts'
import { AppError } from '#server/lib/app-error.ts'
import { countUse } from '#server/lib/rate-limit.ts'
import type { Plan } from '#server/lib/usage.ts'

/** Replies one user may have generating at the same time, unless an operator set another. */
export const MAX_GENERATING_PER_USER = PLAN_LIMITS.free.repliesAtOnce
/** Sends one user may make per minute (a person types far slower; a script does not). */
export const SENDS_PER_MINUTE = PLAN_LIMITS.free.sendsPerMinute

/**
 * A plan's limit as the operator set it in the console (plan_limits), else the product's own:
 * read inside the statement that admits a send, so a change holds on every node at once.
 */
export function planLimit(
  plan: SQL,
  column: 'chars_per_30_days' | 'sends_per_minute' | 'replies_at_once',
  fallback: SQL | number,
): SQL {
  return sql`coalesce((select ${sql.raw(column)} from plan_limits where plan = ${plan}::text), ${fallback})`
}
/** Retry-After for the concurrency refusal: replies usually end within seconds. */
const BUSY_RETRY_SECONDS = 5

/** What a send asks of the user's usage, and how to refuse it. */
export interface UsageClaim {
  /** Input characters the send will be charged (lib/usage.ts inputCharsOf). */
  chars: number
  /** The plan the user is on now, and its limit as the product sets it (planLimit reads the operator's). */
  plan: Plan
  limit: number
  /** The existing usage refusal (429 rate_limited:usage with its reset date). */
  refusal: () => AppError
}

const budgetMessage = (s: number) =>
  `You are sending messages faster than Loris can answer them. Please wait ${s} seconds and send again; your message is still in the box.`

/** Spends a retry's per-minute send budget (a new send spends it in the statement storing it). */
export async function spendSendBudget(db: Db, userId: string, plan: Plan): Promise<void> {
  const limit = planLimit(sql`${plan}`, 'sends_per_minute', SENDS_PER_MINUTE)
  const result = (await db.execute(sql`
    with spent as (${countUse(sql`values (${`send:${userId}`}, now(), 1)`, 60)})
    select count, retry_after, ${limit} as n from spent
  `)) as unknown as { rows: { count: number; retry_after: number; n: number }[] }
  const row = result.rows[0]
  if (row && Number(row.count) > Number(row.n)) throw budgetRefusal(Math.max(1, Number(row.retry_after)))
}

/** The refusal of a send over the budget (the same one enforceRateLimit gives). */
export function budgetRefusal(retryAfter: number): AppError {
  return new AppError('rate_limited:request', budgetMessage(retryAfter), {
    headers: { 'Retry-After': String(retryAfter) },
  })
}

/** The refusal when a user already has the maximum of replies being written. */
export function busyRefusal(replies: number): AppError {
  return new AppError(
    'rate_limited:concurrency',
    `You already have ${replies} replies being written. Wait for one to finish, then send again; your message is still in the box.`,
    { headers: { 'Retry-After': String(BUSY_RETRY_SECONDS) } },
  )
}

/**
 * Whether `chars` more fit the usage on the person's row (users' columns): a send is taken when it
 * fits in what is left, or when nothing else is in flight and the limit is not reached yet (the
 * spec's rule for one send at a time: the last one may go over; decision 009).
 */
export const fitsUsage = (chars: unknown, limit: SQL) =>
  sql`(ai_input_chars + ai_output_chars < ${limit} and (ai_reserved_chars = 0
    or ai_input_chars + ai_output_chars + ai_reserved_chars + ${chars} <= ${limit}))`

/** Where the person's row stands against the plan's limits now (the operator's or the product's). */
async function limitState(db: Db | Tx, userId: string, claim: UsageClaim) {
  const replies = planLimit(sql`${claim.plan}`, 'replies_at_once', MAX_GENERATING_PER_USER)
  const [row] = await db
    .select({
      fits: sql<boolean>`${fitsUsage(claim.chars, planLimit(sql`${claim.plan}`, 'chars_per_30_days', claim.limit))}`,
      busy: sql<boolean>`${users.aiGenerating} >= ${replies}`,
      replies: sql<number>`${replies}`,
    })
    .from(users)
    .where(eq(users.id, userId))
  return row ? { ...row, replies: Number(row.replies) } : null
}

/**
 * The refusal a send would get from the limits as the person's row stands now, or null: for a
 * temporary chat's send, which no statement stores and admits (it holds no reply slot itself).
 */
export async function limitRefusal(db: Db | Tx, userId: string, claim: UsageClaim): Promise<AppError | null> {
  const state = await limitState(db, userId, claim)
  return state?.fits === false ? claim.refusal() : null
}

/**
 * Why an admission was refused, read from the user's row after the fact (the admission itself
 * decided on the locked row). A send over the usage limit hears that first; one that would fit now
 * hears `otherwise` (the send budget's refusal), or that too many replies were generating.
 */
export async function refusalFor(
  db: Db | Tx,
  userId: string,
  claim: UsageClaim,
  otherwise?: AppError,
): Promise<AppError> {
  const state = await limitState(db, userId, claim)
  if (!state?.fits) return claim.refusal()
  return otherwise ?? (state.busy ? busyRefusal(state.replies) : claim.refusal())
}

/**
 * Reserves a restarted reply's usage and place among the replies generating, checked on the user's
 * row as it is updated (so parallel sends on any node count); false when refused (refusalFor says why).
 */
export async function reserve(tx: Tx, userId: string, claim: UsageClaim): Promise<boolean> {
  const reserved = await tx
    .update(users)
    .set({
      aiReservedChars: sql`${users.aiReservedChars} + ${claim.chars}`,
      aiGenerating: sql`${users.aiGenerating} + 1`,
    })
    .where(
      and(
        eq(users.id, userId),
        fitsUsage(claim.chars, planLimit(sql`${claim.plan}`, 'chars_per_30_days', claim.limit)),
        sql`${users.aiGenerating} < ${planLimit(sql`${claim.plan}`, 'replies_at_once', MAX_GENERATING_PER_USER)}`,
      ),
    )
    .returning({ id: users.id })
  return reserved.length > 0
}
