// The one place a reply ends, whatever the outcome: message, user usage and CO2 in one statement.
import { eq, sql } from 'drizzle-orm'
import type { ReplyFamily } from '#contract/models.ts'
import type { Source, ToolStep } from '#contract/tools.ts'
import type { Db, Tx } from '#server/db/client.ts'
import { executeNamed, placeholder as p } from '#server/db/named-statement.ts'
import { PERSON_SENT_ORIGINS, users } from '#server/db/schema/index.ts'
import {
  type ImpactSettings,
  type MeasuredEnergy,
  measuredMessageImpact,
  messageImpact,
} from '#server/features/impact/message-impact.ts'
import type { PendingApproval } from '#server/features/models/approval.ts'
import { countReply } from '#server/lib/telemetry/metrics.ts'

export interface ReplyOutcome {
  status: 'complete' | 'interrupted' | 'failed'
  response: string
  errorMessage: string | null
}

export interface FinishedReply {
  messageId: string
  /** The attempt at the reply that ended (messages.attempt_id): stored only while it is the row's. */
  attemptId: string
  userId: string
  threadId: string | null
  chatModel: ReplyFamily
  provider: string
  modelId: string
  outcome: ReplyOutcome
  inputTokens: number | null
  outputTokens: number | null
  latencyMs: number
  /** From the model call to its first text; null when none came (metrics only, not stored). */
  firstTokenMs?: number | null
  /** What the send charges to aiInputChars (lib/usage.ts inputCharsOf). */
  inputChars: number
  impact: ImpactSettings
  /** The energy an in-process reply used, metered on this machine (decision 020); else estimated. */
  measuredEnergy?: MeasuredEnergy | null
  /** What the reply looked up (decision 065); stored as null when it looked nothing up. */
  sources?: Source[]
  toolSteps?: ToolStep[]
  /** What a reply that ends asking for approval keeps to go on (models/approval.ts); else null. */
  pendingApproval?: PendingApproval | null
  /**
   * The part written before the reply waited for approval, settled then: its tokens and time are
   * in this reply's, and only what came after is charged and saved again.
   */
  earlier?: EarlierPart
  /** Why the eco mode's routing chose the model, and the grams one token saved (models/routing.ts). */
  route?: { reason: string; against: string | null; savedPerToken: number | null }
  now: Date
}

/** The part of a reply settled when it stopped to wait for the person's approval. */
export interface EarlierPart {
  response: string
  inputTokens: number | null
  outputTokens: number | null
  latencyMs: number
  /** The CO2 it saved, already added to the person's total. */
  saved: { mid: number; min: number; max: number }
  sources: Source[]
  toolSteps: ToolStep[]
}

/** Usage charged for a reply: nothing when the model produced nothing (status failed). */
export function chargedChars(r: Pick<FinishedReply, 'outcome' | 'inputChars' | 'earlier'>) {
  if (r.outcome.status === 'failed') return { input: 0, output: 0 }
  const before = r.earlier?.response.length ?? 0
  return { input: r.inputChars, output: Math.max(0, r.outcome.response.length - before) }
}

/**
 * Messages the user has sent (failed sends, regenerated replies and '@' copies not counted:
 * docs/decisions/012), as the database keeps them on the user's row.
 */
export async function countSentMessages(db: Db | Tx, userId: string): Promise<number> {
  const [row] = await db.select({ n: users.sentMessages }).from(users).where(eq(users.id, userId))
  return row?.n ?? 0
}

/** finalizeReply's statement, its values as placeholders (built once: named-statement.ts). */
function buildFinish() {
  const sentOrigins = sql.join(
    PERSON_SENT_ORIGINS.map((o) => sql`${o}`),
    sql`, `,
  )
  return sql`
    with owner as materialized (
      -- The person's row before the message's, the order a send takes them in (its admission,
      -- then its insert): the other order deadlocks with a retry of this very send.
      select id from users where id = ${p('userId')} for no key update
    ), info as (
      select origin, status from messages where id = ${p('messageId')}
    ), held as (
      -- Still this attempt's: a retry that restarted the row after the sweep settled it made
      -- another, whose reservation and place among the replies generating are not this one's.
      select id, reserved_chars from messages
      where id = ${p('messageId')} and completed_at is null and attempt_id = ${p('attemptId')}::uuid
        and exists (select 1 from owner)
      for update
    ), done as (
      update messages m set
        response = ${p('response')}::text,
        status = ${p('status')}::text,
        error_message = ${p('errorMessage')}::text,
        input_tokens = ${p('inputTokens')}::int,
        output_tokens = ${p('outputTokens')}::int,
        latency_ms = ${p('latencyMs')}::int,
        co2_impact = ${p('co2')}::jsonb,
        sources = ${p('sources')}::jsonb,
        tool_steps = ${p('toolSteps')}::jsonb,
        pending_approval = ${p('pendingApproval')}::jsonb,
        completed_at = ${p('now')}::timestamptz,
        reserved_chars = 0
      from held where m.id = held.id
      returning m.id
    ), charged as (
      update users set
        ai_input_chars = ai_input_chars + ${p('chargedInput')}::int,
        ai_output_chars = ai_output_chars + ${p('chargedOutput')}::int,
        ai_reserved_chars = greatest(0, ai_reserved_chars - (select reserved_chars from held)),
        ai_generating = greatest(0, ai_generating - 1),
        co2_saved = co2_saved + ${p('savedMid')}::float8,
        co2_saved_min = co2_saved_min + ${p('savedMin')}::float8,
        co2_saved_max = co2_saved_max + ${p('savedMax')}::float8
      where id = ${p('userId')} and exists (select 1 from done)
      returning id
    )
    select
      (select origin from info) as origin,
      (select status from info) as status,
      exists (select 1 from done) as settled,
      -- The user's sent messages before this statement (the triggers of migration 0015 update
      -- the count after it), this message left out if it was counted.
      ((select sent_messages from users where id = ${p('userId')})
        - (select count(*) from info where status <> 'failed' and origin in (${sentOrigins})))::int
        as others
  `
}

/** CO2 of what the model generated; null when it generated nothing or cannot be priced. */
export function replyImpact(r: FinishedReply) {
  if (r.outcome.status === 'failed') return null
  const { modelId, outputTokens, latencyMs, measuredEnergy: energy } = r
  if (energy && outputTokens !== null)
    return measuredMessageImpact({ modelId, outputTokens, latencyMs, zone: r.impact.zone, energy })
  const replyChars = r.outcome.response.length
  return messageImpact({ ...r.impact, provider: r.provider, modelId, outputTokens, latencyMs, replyChars })
}

/**
 * Stores the end of a reply and settles its usage in one statement (decision 021): the reservation
 * released, what was used charged, its place among the replies generating given back, its CO2
 * added. A reply settled before (by the lease sweep), restarted by a retry or deleted is left as it
 * is. Answers whether this call stored it, and the user's sent-message count after it when the
 * person wrote the message (a regenerated reply sends nothing new).
 */
export async function finalizeReply(
  db: Db,
  r: FinishedReply,
): Promise<{ userMessageCount?: number; stored: boolean }> {
  const charged = chargedChars(r)
  const co2Impact = replyImpact(r)
  if (co2Impact && r.route) {
    const tokens = co2Impact.inputs.outputTokens
    co2Impact.routing = {
      reason: r.route.reason,
      against: r.route.against ?? '',
      savedGrams: (r.route.savedPerToken ?? 0) * tokens,
    }
  }
  // A reply that went on after an approval: its first part's saving was added when it stopped.
  const whole = co2Impact?.saved ?? { mid: 0, min: 0, max: 0 }
  const before = r.earlier?.saved ?? { mid: 0, min: 0, max: 0 }
  const saved = { mid: whole.mid - before.mid, min: whole.min - before.min, max: whole.max - before.max }
  type Row = { origin: string | null; status: string | null; settled: boolean; others: number }
  const result = await executeNamed<Row>(db, {
    shape: 'finish',
    build: buildFinish,
    values: {
      messageId: r.messageId,
      attemptId: r.attemptId,
      userId: r.userId,
      response: r.outcome.response,
      status: r.outcome.status,
      errorMessage: r.outcome.errorMessage,
      inputTokens: r.inputTokens,
      outputTokens: r.outputTokens,
      latencyMs: r.latencyMs,
      co2: co2Impact ? JSON.stringify(co2Impact) : null,
      sources: r.sources?.length ? JSON.stringify(r.sources) : null,
      toolSteps: r.toolSteps?.length ? JSON.stringify(r.toolSteps) : null,
      pendingApproval: r.pendingApproval ? JSON.stringify(r.pendingApproval) : null,
      now: r.now.toISOString(),
      chargedInput: charged.input,
      chargedOutput: charged.output,
      savedMid: saved.mid,
      savedMin: saved.min,
      savedMax: saved.max,
    },
  })
  const row = result.rows[0]
  const stored = row?.settled === true
  if (stored) countReply({ ...r, model: r.modelId, status: r.outcome.status, co2: co2Impact })
  if (!row?.origin || !(PERSON_SENT_ORIGINS as readonly string[]).includes(row.origin)) return { stored }
  const status = row.settled ? r.outcome.status : row.status
  return { userMessageCount: Number(row.others) + (status === 'failed' ? 0 : 1), stored }
}
