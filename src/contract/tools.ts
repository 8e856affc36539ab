import { z } from 'zod'

/** A page a reply drew on: a web search result, a link the person gave, a project passage. */
export const sourceSchema = z.object({
  url: z.string(),
  title: z.string(),
  snippet: z.string().optional(),
})
export type Source = z.infer<typeof sourceSchema>

/** One tool call a reply made, shown as a collapsible step (name, arguments, result). */
export const toolStepSchema = z.object({
  id: z.string(),
  name: z.string(),
  args: z.unknown(),
  /** What the tool answered, cut to a readable length; absent while it runs or when refused. */
  result: z.string().optional(),
  status: z.enum(['running', 'done', 'failed', 'awaiting-approval', 'refused']),
})
export type ToolStep = z.infer<typeof toolStepSchema>

/** At most this many tool steps per reply, each within the time below. */
export const TOOL_LIMITS = { steps: 5, stepSeconds: 20 } as const
