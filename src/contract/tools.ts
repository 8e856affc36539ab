import { z } from 'zod'

/** A page a reply drew on: a web search result, a link the person gave, a project passage. */
export const sourceSchema = z.object({
  url: z.string(),
  title: z.string(),
  snippet: z.string().optional(),
})
export type Source = z.infer<typeof sourceSchema>

/**
 * How long a tool call waits for the person's approval. Past it the call is refused, and the
 * reply stays as it stood when it asked.
 */
export const APPROVAL_MINUTES = 10

/** One tool call a reply made, shown as a collapsible step (name, arguments, result). */
export const toolStepSchema = z.object({
  id: z.string(),
  name: z.string(),
  args: z.unknown(),
  /** What the tool answered, cut to a readable length; absent while it runs or when refused. */
  result: z.string().optional(),
  status: z.enum(['running', 'done', 'failed', 'awaiting-approval', 'refused']),
  /**
   * While the call waits for the person (status awaiting-approval): the message whose
   * `POST /api/messages/:id/approval` answers it, and until when (ISO time).
   */
  approval: z.object({ messageId: z.string(), expiresAt: z.string() }).optional(),
})
export type ToolStep = z.infer<typeof toolStepSchema>

/** At most this many tool steps per reply, each within the time below. */
export const TOOL_LIMITS = { steps: 5, stepSeconds: 20 } as const

/** The person's answer to the calls a reply waits on (POST /api/messages/:id/approval). */
export const approvalAnswerSchema = z.object({ approved: z.boolean() })
export type ApprovalAnswer = z.infer<typeof approvalAnswerSchema>
