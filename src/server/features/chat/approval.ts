// The person's answer to the tool calls a reply waits on (POST /api/messages/:id/approval): by the
// reply's owner, once, before it expires. The reply goes on in the same row, admitted and reserved
// like a send, from where it stopped: the tool runs (or the model is told it was not approved) in
// the next model call (models/approval.ts). Decision 070.
import { randomUUID } from 'node:crypto'
import { and, eq, isNotNull, type SQL, sql } from 'drizzle-orm'
import { co2ImpactSchema } from '#contract/impact.ts'
import type { Message } from '#contract/messages.ts'
import type { ToolStep } from '#contract/tools.ts'
import type { Db, Tx } from '#server/db/client.ts'
import { messages, users } from '#server/db/schema/index.ts'
import {
  answeredMessages,
  answeredSteps,
  DENIED_REASON,
  EXPIRED_RESULT,
  pendingApprovalOf,
} from '#server/features/models/approval.ts'
import type { ResolvedModel } from '#server/features/models/registry.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { UserRow } from '#server/lib/context.ts'
import { toMessageJson } from '#server/lib/message-json.ts'
import { sourcesOf, toolStepsOf } from '#server/lib/stored-message.ts'
import { inputCharsOf, type tierOf } from '#server/lib/usage.ts'
import { refusalFor, reserve, type UsageClaim } from './admission.ts'
import { userText } from './history.ts'
import { contextChars } from './prompt-context.ts'
import { findOwnedMessage, type MessageRow, newAttempt } from './queries.ts'
import { type ChatServices, replyJob, storedContextOf, usageClaim } from './send.ts'
import { loadHistory } from './send-statement.ts'

const answered = () =>
  new AppError('conflict:approval', 'This tool call was already answered; the reply shows what happened.')
const expired = () =>
  new AppError(
    'conflict:approval',
    `${EXPIRED_RESULT} The reply ended where it asked; send your message again to retry.`,
  )

export async function answerApproval(
  s: ChatServices,
  user: UserRow,
  id: string,
  approved: boolean,
): Promise<Message> {
  const row = await findOwnedMessage(s.db, user.id, id)
  if (!row) throw new AppError('not_found:message', 'This message does not exist')
  const pending = pendingApprovalOf(row.pendingApproval)
  if (!pending) throw answered()
  const ctx = await storedContextOf(s, user, row)
  const { tier, claim } = await usageClaim(s, user, inputCharsOf(row) + contextChars(ctx))
  const resolved = modelOf(s, row, tier)
  const steps = answeredSteps(
    toolStepsOf(row.toolSteps),
    approved ? { approved: true } : { approved: false, result: DENIED_REASON },
  )
  const claimed = await claimAnswer(s.db, row, claim, steps, s.now())
  if (claimed.kind === 'answered') throw answered()
  if (claimed.kind === 'expired') throw expired()
  if (claimed.kind === 'refused') throw await refusalFor(s.db, user.id, claim)

  const history = await loadHistory(s.db, row.parentId)
  const at = { history, ctx, webSearch: pending.webSearch }
  s.generations.start(s, {
    ...replyJob(
      s,
      { ...row, attemptId: claimed.attemptId },
      claim.chars,
      resolved,
      { content: userText(row) },
      at,
    ),
    earlier: {
      response: row.response,
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
      latencyMs: row.latencyMs ?? 0,
      saved: co2ImpactSchema.safeParse(row.co2Impact).data?.saved ?? { mid: 0, min: 0, max: 0 },
      sources: sourcesOf(row.sources),
      toolSteps: steps,
      messages: answeredMessages(pending, approved),
    },
  })
  return toMessageJson(claimed.row)
}

/**
 * The model that goes on with the reply: the catalogue model that wrote it, or its mode's model
 * for the person's tier now (as their next send would get).
 */
function modelOf(s: ChatServices, row: MessageRow, tier: ReturnType<typeof tierOf>): ResolvedModel {
  if (row.modelId && s.models.catalogue.models.some((m) => m.id === row.modelId))
    return s.models.resolveModel(row.modelId)
  const mode = row.chatModel
  if (mode === 'gemini' || mode === 'chatgpt' || mode === 'loris') return s.models.resolve(mode, tier.gemini)
  throw new AppError('not_found:model', 'The model that wrote this reply is no longer served here')
}

type Claimed =
  | { kind: 'claimed'; row: MessageRow; attemptId: string }
  | { kind: 'answered' }
  | { kind: 'expired' }
  | { kind: 'refused' }

/**
 * Takes the answer, once: the row locked (after the person's, the order finalizeReply takes them
 * in), its pending approval read again, then either refused as expired (the steps say so) or
 * restarted as a new attempt of the reply, streaming, its usage reserved like a send's.
 */
async function claimAnswer(
  db: Db,
  row: Pick<MessageRow, 'id' | 'userId' | 'toolSteps'>,
  claim: UsageClaim,
  steps: ToolStep[],
  now: Date,
): Promise<Claimed> {
  const attemptId = randomUUID()
  return db.transaction(async (tx): Promise<Claimed> => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, row.userId)).for('no key update')
    const [locked] = await tx
      .select({ pending: messages.pendingApproval, toolSteps: messages.toolSteps })
      .from(messages)
      .where(and(eq(messages.id, row.id), isNotNull(messages.pendingApproval)))
      .for('update')
    const pending = pendingApprovalOf(locked?.pending)
    if (!locked || !pending) return { kind: 'answered' }
    if (new Date(pending.expiresAt) <= now) {
      await expireApprovals(tx, now, row.id)
      return { kind: 'expired' }
    }
    if (!(await reserve(tx, row.userId, claim))) return { kind: 'refused' }
    const [restarted] = await tx
      .update(messages)
      .set({ ...newAttempt(attemptId, claim.chars), pendingApproval: null, toolSteps: steps })
      .where(eq(messages.id, row.id))
      .returning()
    return restarted ? { kind: 'claimed', row: restarted, attemptId } : { kind: 'answered' }
  })
}

/**
 * Ends the approvals past their time (of one message, or all of them): nothing waits any more,
 * and each step that waited is refused, saying why. Run by an answer that comes too late and by
 * the hourly maintenance (main.ts), so a stored reply never shows a question no one can answer.
 */
export async function expireApprovals(db: Db | Tx, now: Date, messageId?: string): Promise<void> {
  const one: SQL = messageId ? sql`and m.id = ${messageId}` : sql``
  await db.execute(sql`
    update messages m set
      pending_approval = null,
      tool_steps = (
        select jsonb_agg(
          case when e.step->>'status' = 'awaiting-approval'
            then (e.step - 'approval') || jsonb_build_object('status', 'refused', 'result', ${EXPIRED_RESULT}::text)
            else e.step end
          order by e.n)
        from jsonb_array_elements(m.tool_steps) with ordinality as e(step, n)
      )
    where m.pending_approval is not null
      and (m.pending_approval->>'expiresAt')::timestamptz <= ${now.toISOString()}::timestamptz
      ${one}
  `)
}
