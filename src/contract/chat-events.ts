import { z } from 'zod'
import { messageStatusSchema } from './messages.ts'
import { sourceSchema, toolStepSchema } from './tools.ts'

/**
 * One event of the POST /api/messages stream, sent as a line `data: {json}` followed by a blank
 * line (spec section 7). Lines starting with ':' are keep-alive comments; skip them.
 *
 * The events of one send, in order:
 * 1. start: `{ id, threadId, actualThreadId?, status: 'streaming', text: '' }`
 * 2. text chunks: `{ id, text }`, appended to the reply in order; before the first chunk, a reply
 *    that has to wait says why: `{ id, wait: { kind: 'queued', position } }` (position 1 is next
 *    in line) or `{ id, wait: { kind: 'preparing', percent } }` (the eco model is being fetched or
 *    loaded; percent of the download, null when unknown); `{ id, wait: null }` when it starts;
 *    between the chunks, as the reply looks things up: `{ id, toolStep }` (a tool call, sent again
 *    as it ends with its result; the same `toolStep.id` replaces the earlier one) and
 *    `{ id, sources }` (every source so far, numbered from 1 in order);
 * 3. the end, exactly one of
 *    - done: `{ id, threadId, actualThreadId?, done: true, status: 'complete' | 'interrupted' }`
 *      (interrupted when someone pressed Stop: the text so far is kept);
 *    - error: `{ id?, threadId?, error, code, status? }`, the error text is for people. When the
 *      model broke off mid-reply, status is 'interrupted' and what arrived is stored; 'failed'
 *      means no reply was stored. No `id` means nothing was stored (e.g. the mode is not
 *      configured: `code: 'service_unavailable:provider'`).
 * `actualThreadId` is present when the send created a thread (no threadId was given).
 * `userMessageCount` rides on the ending event of a reply that was just stored.
 */
/** Why a reply has not started yet (the in-process eco model: a queue, or its first preparation). */
export const chatWaitSchema = z.union([
  z.object({ kind: z.literal('queued'), position: z.number().int().positive() }),
  z.object({ kind: z.literal('preparing'), percent: z.number().min(0).max(100).nullable() }),
])
export type ChatWait = z.infer<typeof chatWaitSchema>

export const chatEventSchema = z.object({
  /** The server id of the stored message. */
  id: z.string().optional(),
  /** A chunk of the reply. */
  text: z.string().optional(),
  done: z.boolean().optional(),
  error: z.string().optional(),
  code: z.string().optional(),
  threadId: z.string().optional(),
  actualThreadId: z.string().optional(),
  status: messageStatusSchema.optional(),
  /** The reply is waiting (see above); null once it starts. */
  wait: chatWaitSchema.nullable().optional(),
  /** A tool call of the reply, as it starts and again as it ends (decision 065). */
  toolStep: toolStepSchema.optional(),
  /** The reply's sources so far, all of them, numbered from 1; also on the ending event. */
  sources: z.array(sourceSchema).optional(),
  /**
   * On the ending event of a stored reply: how many messages the user has sent in all (failed
   * sends not counted). The client plants a tree when it is even and shows the upgrade prompt
   * at exactly 5 (spec section 4).
   */
  userMessageCount: z.number().int().nonnegative().optional(),
})
export type ChatEvent = z.infer<typeof chatEventSchema>

export { type ChatErrorCode, chatErrorCodes } from './chat-codes.ts'

/** A `data:` line of the stream that is not an event: not JSON, or not of an event's shape. */
export class ChatEventLineError extends Error {
  constructor(readonly line: string) {
    super(`not a chat event: ${line.slice(0, 80)}`)
    this.name = 'ChatEventLineError'
  }
}

/**
 * The event one line of the stream carries; null for a line without one (keep-alive comments,
 * blank lines, other fields). Takes a CRLF end and `data:` without its space, as SSE allows.
 * Throws ChatEventLineError for a data line that is not an event: something other than a Loris
 * server answered. The one reader of a line (the client's and the tests').
 */
export function parseChatEventLine(line: string): ChatEvent | null {
  const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line
  if (!trimmed.startsWith('data:')) return null
  const payload = trimmed.slice(5).trimStart()
  if (!payload) return null
  let json: unknown
  try {
    json = JSON.parse(payload)
  } catch {
    throw new ChatEventLineError(line)
  }
  const parsed = chatEventSchema.safeParse(json)
  if (!parsed.success) throw new ChatEventLineError(line)
  return parsed.data
}
