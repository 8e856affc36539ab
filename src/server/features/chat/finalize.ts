// The one place a reply ends, whatever the outcome: message, user usage, CO2 and thread in one
// transaction.
import { and, count, eq, inArray, ne, sql } from 'drizzle-orm'
import type { ChatModel } from '#contract/config.ts'
import type { Db, Tx } from '#server/db/client.ts'
import { messages, PERSON_SENT_ORIGINS, threads, users } from '#server/db/schema/index.ts'
import {
  type ImpactSettings,
  type MeasuredEnergy,
  measuredMessageImpact,
  messageImpact,
} from '#server/features/impact/message-impact.ts'
import { addCo2Saved } from '#server/features/impact/queries.ts'

export interface ReplyOutcome {
  status: 'complete' | 'interrupted' | 'failed'
  response: string
  errorMessage: string | null
}

export interface FinishedReply {
  messageId: string
  userId: string
  threadId: string | null
  chatModel: ChatModel
  provider: string
  modelId: string
  outcome: ReplyOutcome
  inputTokens: number | null
  outputTokens: number | null
  latencyMs: number
  /** What the send charges to aiInputChars (usage.ts inputCharsOf). */
  inputChars: number
  impact: ImpactSettings
  /** The energy an in-process reply used, metered on this machine (decision 020); else estimated. */
  measuredEnergy?: MeasuredEnergy | null
  now: Date
}

/** Usage charged for a reply: nothing when the model produced nothing (status failed). */
export function chargedChars(r: Pick<FinishedReply, 'outcome' | 'inputChars'>) {
  if (r.outcome.status === 'failed') return { input: 0, output: 0 }
  return { input: r.inputChars, output: r.outcome.response.length }
}

/**
 * Messages the user has sent, failed sends (nothing but the prompt stored) not counted, nor what
 * the person did not write: regenerated replies and the copies '@' makes (docs/decisions/012).
 */
export async function countSentMessages(db: Db | Tx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(messages)
    .where(
      and(
        eq(messages.userId, userId),
        ne(messages.status, 'failed'),
        inArray(messages.origin, [...PERSON_SENT_ORIGINS]),
      ),
    )
  return row?.n ?? 0
}

/**
 * Stores the end of a reply and settles its usage: the reservation made when the send was admitted
 * is released and what was used is charged. A reply already settled (the lease sweep finished it
 * after this node stalled past its lease) or deleted is left as it is. Answers the user's
 * sent-message count after it when the person wrote this message (a regenerated reply sends
 * nothing new: no tree, no upgrade prompt).
 */
export async function finalizeReply(db: Db, r: FinishedReply): Promise<{ userMessageCount?: number }> {
  const charged = chargedChars(r)
  // CO2 of what the model generated (issue #5); null when it generated nothing or cannot be priced.
  const co2Impact =
    r.outcome.status === 'failed'
      ? null
      : r.measuredEnergy && r.outputTokens !== null
        ? measuredMessageImpact({
            modelId: r.modelId,
            outputTokens: r.outputTokens,
            latencyMs: r.latencyMs,
            zone: r.impact.zone,
            energy: r.measuredEnergy,
          })
        : messageImpact({
            ...r.impact,
            provider: r.provider,
            modelId: r.modelId,
            outputTokens: r.outputTokens,
            latencyMs: r.latencyMs,
            replyChars: r.outcome.response.length,
          })
  return db.transaction(async (tx) => {
    // Locked: the sweep (lease.ts) skips a row held here, and this skips a row it settled.
    const [held] = await tx
      .select({
        reservedChars: messages.reservedChars,
        completedAt: messages.completedAt,
        origin: messages.origin,
      })
      .from(messages)
      .where(eq(messages.id, r.messageId))
      .for('update')
    const written = held !== undefined && (PERSON_SENT_ORIGINS as readonly string[]).includes(held.origin)
    const sentCount = async () => (written ? { userMessageCount: await countSentMessages(tx, r.userId) } : {})
    if (!held || held.completedAt) return sentCount()
    await tx
      .update(messages)
      .set({
        response: r.outcome.response,
        status: r.outcome.status,
        errorMessage: r.outcome.errorMessage,
        inputTokens: r.inputTokens,
        outputTokens: r.outputTokens,
        latencyMs: r.latencyMs,
        co2Impact,
        completedAt: r.now,
        reservedChars: 0,
      })
      .where(eq(messages.id, r.messageId))
    if (co2Impact) await addCo2Saved(tx, r.userId, co2Impact)
    if (charged.input + charged.output + held.reservedChars > 0) {
      await tx
        .update(users)
        .set({
          aiInputChars: sql`${users.aiInputChars} + ${charged.input}`,
          aiOutputChars: sql`${users.aiOutputChars} + ${charged.output}`,
          aiReservedChars: sql`greatest(0, ${users.aiReservedChars} - ${held.reservedChars})`,
        })
        .where(eq(users.id, r.userId))
    }
    if (r.threadId) {
      await tx
        .update(threads)
        .set({ lastMessageAt: r.now, chatModel: r.chatModel })
        .where(and(eq(threads.id, r.threadId), eq(threads.userId, r.userId)))
    }
    return sentCount()
  })
}
