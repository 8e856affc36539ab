// A reply that waits for the person's approval of a tool call (the AI SDK's `needsApproval`): the
// model's call ends with an approval request, the reply is stored with what it needs to go on
// (messages.pending_approval), and the person's answer becomes a `tool-approval-response` in the
// next call's messages, which runs the tool (or tells the model it was not approved) and goes on.
// Decision 070.
import type { ModelMessage } from 'ai'
import { z } from 'zod'
import { APPROVAL_MINUTES, type ToolStep } from '#contract/tools.ts'

/** What a reply waiting for approval keeps to go on, stored with it. */
export const pendingApprovalSchema = z.object({
  expiresAt: z.string(),
  /** The approval requests the model's call ended with, and the tool calls they are for. */
  requests: z.array(z.object({ approvalId: z.string(), toolCallId: z.string() })).min(1),
  /**
   * The reply's own messages so far, after its prompt: text, tool calls and their results, and
   * the approval requests, as the AI SDK gave them (`response.messages`).
   */
  messages: z.array(z.custom<ModelMessage>((m) => typeof m === 'object' && m !== null && 'role' in m)),
  /** The send's search toggle: the tools offered again are the same. */
  webSearch: z.boolean(),
})
export type PendingApproval = z.infer<typeof pendingApprovalSchema>

export const approvalExpiry = (now: Date) => new Date(now.getTime() + APPROVAL_MINUTES * 60_000)

/** The stored state, or null when there is none or it is not of this shape. */
export function pendingApprovalOf(stored: unknown): PendingApproval | null {
  return pendingApprovalSchema.safeParse(stored).data ?? null
}

/** What the model is told when the person declines. */
export const DENIED_REASON = 'The person did not approve this tool call. Do not call it again.'
/** What a step says once its approval was not given in time. */
export const EXPIRED_RESULT = `Not approved within ${APPROVAL_MINUTES} minutes.`

/** The reply's messages with the person's answer to each request it waits on, for the next call. */
export function answeredMessages(pending: PendingApproval, approved: boolean): ModelMessage[] {
  return [
    ...pending.messages,
    {
      role: 'tool',
      content: pending.requests.map((r) => ({
        type: 'tool-approval-response' as const,
        approvalId: r.approvalId,
        approved,
        ...(approved ? {} : { reason: DENIED_REASON }),
      })),
    },
  ]
}

/**
 * The reply's steps once the person answered (or did not in time): the calls that waited run
 * (approved), or are refused with the reason.
 */
export function answeredSteps(
  steps: ToolStep[],
  answer: { approved: true } | { approved: false; result: string },
): ToolStep[] {
  return steps.map((step) => {
    if (step.status !== 'awaiting-approval') return step
    const { approval: _, ...rest } = step
    return answer.approved
      ? { ...rest, status: 'running' as const }
      : { ...rest, status: 'refused' as const, result: answer.result }
  })
}
