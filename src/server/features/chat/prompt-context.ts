// What a send adds to the model's system prompt besides the thread: the person's custom
// instructions, its project's instructions, and the passages of the project's files that match
// the message (retrieved instead of sending the files). Provided by app.ts, which composes the
// account, projects and knowledge features; chat only places what it is given.

/** A passage retrieved for a send, cited in the reply as [n] in the order given. */
export interface RetrievedPassage {
  fileName: string
  text: string
}

export interface PromptContext {
  /** Instructions, most general first (the person's, then the project's); empty strings skipped. */
  instructions: string[]
  passages: RetrievedPassage[]
  /** Characters of the files the passages came from: what sending them whole would have cost. */
  filesChars: number
}

export const NO_CONTEXT: PromptContext = { instructions: [], passages: [], filesChars: 0 }

/**
 * The context of a send by `userId` in `threadId` (or a new thread in `projectId`) about `query`.
 * Throws `not_found:project` for a project that is not the person's.
 */
export type PromptContextSource = (
  userId: string,
  at: { threadId: string | null; projectId: string | null },
  query: string,
) => Promise<PromptContext>

/** The text the context adds to the system prompt. */
export function contextSystemText(ctx: PromptContext): string {
  const parts = ctx.instructions.filter((i) => i.trim()).map((i) => i.trim())
  if (ctx.passages.length) {
    const cited = ctx.passages.map((p, i) => `[${i + 1}] (${p.fileName})\n${p.text}`).join('\n\n')
    parts.push(
      `Passages that match the message, from the project's files and the documents shared earlier in this conversation. Use them when they help, and cite each one you use as [n]:\n\n${cited}`,
    )
  }
  return parts.join('\n\n')
}

/** Characters the context adds to a send's input: counted like any input (usage, footprint). */
export const contextChars = (ctx: PromptContext) => contextSystemText(ctx).length
