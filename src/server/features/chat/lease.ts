// Leases on replies being generated. The node writing a reply renews the row's heartbeat at every
// progress save (generation.ts); a reply whose heartbeat is older than LEASE_MS lost its node (a
// crash, kill -9, a lost host) and is finished here: interrupted with the text it had, its usage
// settled. Every node sweeps at start-up and every SWEEP_MS; a reply whose row a person deletes is
// settled by the delete (chargeUnfinishedReplies). docs/decisions/009-limits-and-leases.md
import { randomUUID } from 'node:crypto'
import { type SQL, sql } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { Db, Tx } from '#server/db/client.ts'
import { type RepeatingJob, startRepeatingJob } from '#server/lib/repeating-job.ts'

/** A heartbeat older than this means the generating node is gone. */
export const LEASE_MS = 15_000
/** How often each node looks for lapsed leases. */
export const SWEEP_MS = 5_000
/** This process, named on the rows it generates (for the logs: which node lost which replies). */
export const NODE_ID = randomUUID()

/** Stored on a reply whose node died; a retry of such a send generates again. */
export const LOST_NODE_MESSAGE = 'The reply was cut off: the server stopped while writing it'

export interface LapsedReply {
  id: string
  userId: string
  nodeId: string | null
  status: string
}

/**
 * Charges what replies used and gives back what they held (their reservation and their places
 * among the replies generating): `step` has a row per person of user_id, input, output, released
 * and replies.
 */
const settleUsage = (step: string) => {
  const s = sql.raw(step)
  return sql`update users u set
      ai_input_chars = u.ai_input_chars + ${s}.input,
      ai_output_chars = u.ai_output_chars + ${s}.output,
      ai_reserved_chars = greatest(0, u.ai_reserved_chars - ${s}.released),
      ai_generating = greatest(0, u.ai_generating - ${s}.replies)
    from ${s} where u.id = ${s}.user_id`
}

/**
 * Finishes every reply whose lease lapsed (or only `only`'s, or one user's) in one statement:
 * a streaming reply becomes interrupted keeping its text (failed when it had none, which charges
 * nothing, as a live failure would); one stopped but never stored keeps its status. The user's
 * reservation is released and what was used is charged, exactly once: rows already settled
 * (completed_at set) are never touched, and rows another sweep holds are skipped.
 */
export async function finishLapsed(
  db: Db,
  only: { messageId?: string; userId?: string } = {},
): Promise<LapsedReply[]> {
  const byId = only.messageId ? sql`and id = ${only.messageId}` : sql``
  const byUser = only.userId ? sql`and user_id = ${only.userId}` : sql``
  const result = (await db.execute(sql`
    with lapsed as (
      select id, user_id, reserved_chars, status, response = '' as empty
      from messages
      where completed_at is null
        -- Streaming, or stopped and never stored; rows from before leases (ended without a
        -- completed_at, nothing reserved) were settled then and are left alone.
        and (status = 'streaming' or reserved_chars > 0)
        and heartbeat_at < now() - make_interval(secs => ${LEASE_MS / 1000})
        ${byId} ${byUser}
      for update skip locked
    ), finished as (
      update messages m set
        status = case when lapsed.status <> 'streaming' then lapsed.status
                      when lapsed.empty then 'failed' else 'interrupted' end,
        error_message = case when lapsed.status <> 'streaming' then m.error_message
                             else ${LOST_NODE_MESSAGE} end,
        completed_at = now(),
        reserved_chars = 0
      from lapsed
      where m.id = lapsed.id
      returning m.id, m.user_id, m.node_id, m.status, lapsed.reserved_chars, length(m.response) as out_chars
    ), per_user as (
      select user_id,
        sum(case when status = 'failed' then 0 else reserved_chars end) as input,
        sum(case when status = 'failed' then 0 else out_chars end) as output,
        sum(reserved_chars) as released,
        count(*) as replies
      from finished group by user_id
    ), charged as (${settleUsage('per_user')} returning u.id)
    select id, user_id, node_id, status from finished
  `)) as unknown as { rows: { id: string; user_id: string; node_id: string | null; status: string }[] }
  return result.rows.map((r) => ({ id: r.id, userId: r.user_id, nodeId: r.node_id, status: r.status }))
}

/**
 * Charges the person's unfinished replies that `where` selects as their rows are deleted, in the
 * delete's transaction (else deleting a reply just before its end would slip past the usage limit).
 * The rows are locked first: a reply's end at the same moment settles first or finds its row gone.
 */
export async function chargeUnfinishedReplies(tx: Tx, userId: string, where: SQL): Promise<void> {
  await tx.execute(sql`
    with unfinished as (
      select reserved_chars, length(response) as out_chars
      from messages
      where user_id = ${userId} and ${where}
        and completed_at is null and (status = 'streaming' or reserved_chars > 0)
      for update
    ), total as (
      select ${userId}::uuid as user_id, sum(reserved_chars)::int as input, sum(out_chars)::int as output,
        sum(reserved_chars)::int as released, count(*)::int as replies
      from unfinished having count(*) > 0
    )
    ${settleUsage('total')}
  `)
}

/** A user holding a reservation or a place among the replies generating. */
const holding = sql`ai_reserved_chars > 0 or ai_generating > 0`

/**
 * Sets each user's reservation and replies generating back to what their unsettled sends hold (a
 * reply deleted while its node was down held some). Users are locked first, so the sums see every
 * send admitted before.
 */
export async function reconcileReservations(db: Db): Promise<void> {
  // Nothing held by anyone, as on an idle server: one statement, no transaction.
  const held = (await db.execute(sql`
    select 1 from users where ${holding} limit 1
  `)) as unknown as { rows: unknown[] }
  if (held.rows.length === 0) return
  await db.transaction(async (tx) => {
    const locked = (await tx.execute(sql`
      select id from users where ${holding} for update skip locked
    `)) as unknown as { rows: { id: string }[] }
    if (locked.rows.length === 0) return
    const ids = locked.rows.map((r) => r.id)
    await tx.execute(sql`
      update users u set
        ai_reserved_chars = coalesce((
          select sum(m.reserved_chars) from messages m
          where m.user_id = u.id and m.completed_at is null
        ), 0),
        ai_generating = (
          select count(*) from messages m
          where m.user_id = u.id and m.completed_at is null
            and (m.status = 'streaming' or m.reserved_chars > 0)
        )
      where u.id = any(${sql.param(ids)}::uuid[])
    `)
  })
}

/** One sweep: lapsed replies finished, then reservations nothing holds any more released. */
export async function sweepLeases(db: Db, log: Logger): Promise<LapsedReply[]> {
  const finished = await finishLapsed(db)
  const replies = finished.map((r) => ({ id: r.id, nodeId: r.nodeId, status: r.status }))
  if (replies.length > 0) log.warn({ replies }, 'finished replies whose node stopped renewing its lease')
  await reconcileReservations(db)
  return finished
}

/** Sweeps now and every `everyMs` (lib/repeating-job.ts: never two at once). */
export function startLeaseSweeper(db: Db, log: Logger, everyMs = SWEEP_MS): RepeatingJob {
  return startRepeatingJob(() => sweepLeases(db, log), everyMs, {
    runNow: true,
    onError: (err) => log.warn({ err }, 'lease sweep failed'),
  })
}
