// The one place a reply ends, whatever the outcome: message, user usage and thread in one
// transaction. Later issues hook in here (CO2 per message: see the marked spot).
import { and, count, eq, ne, sql } from 'drizzle-orm'
import type { ChatModel } from '#contract/config.ts'
import type { Db, Tx } from '#server/db/client.ts'
import { messages, threads, users } from '#server/db/schema/index.ts'

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
  now: Date
}

/** Usage charged for a reply: nothing when the model produced nothing (status failed). */
export function chargedChars(r: Pick<FinishedReply, 'outcome' | 'inputChars'>) {
  if (r.outcome.status === 'failed') return { input: 0, output: 0 }
  return { input: r.inputChars, output: r.outcome.response.length }
}

/** Messages the user has sent, failed sends (nothing but the prompt stored) not counted. */
export async function countSentMessages(db: Db | Tx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(messages)
    .where(and(eq(messages.userId, userId), ne(messages.status, 'failed')))
  return row?.n ?? 0
}

/** Stores the end of a reply; answers the user's sent-message count after it. */
export async function finalizeReply(db: Db, r: FinishedReply): Promise<{ userMessageCount: number }> {
  const charged = chargedChars(r)
  return db.transaction(async (tx) => {
    // CO2 (later issue): compute the impact from provider, modelId, outputTokens and latencyMs
    // here, store it in messages.co2Impact and add the saved grams to users.co2Saved below.
    await tx
      .update(messages)
      .set({
        response: r.outcome.response,
        status: r.outcome.status,
        errorMessage: r.outcome.errorMessage,
        inputTokens: r.inputTokens,
        outputTokens: r.outputTokens,
        latencyMs: r.latencyMs,
        completedAt: r.now,
      })
      .where(eq(messages.id, r.messageId))
    if (charged.input + charged.output > 0) {
      await tx
        .update(users)
        .set({
          aiInputChars: sql`${users.aiInputChars} + ${charged.input}`,
          aiOutputChars: sql`${users.aiOutputChars} + ${charged.output}`,
        })
        .where(eq(users.id, r.userId))
    }
    if (r.threadId) {
      await tx
        .update(threads)
        .set({ lastMessageAt: r.now, chatModel: r.chatModel })
        .where(and(eq(threads.id, r.threadId), eq(threads.userId, r.userId)))
    }
    return { userMessageCount: await countSentMessages(tx, r.userId) }
  })
}
