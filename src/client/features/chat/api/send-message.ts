// POST /api/messages as a stream (spec section 7). Not a query: the token stream is its own hook
// (use-chat-stream.ts); this file only speaks the wire format and classifies failures.
import { postMessageForm } from '#client/features/chat/api/post-message-form.ts'
import { ApiError, throwIfNotOk } from '#client/lib/api.ts'
import { chatErrorCodes, USAGE_LIMIT_CODE } from '#contract/chat-codes.ts'
import type { ChatEvent } from '#contract/chat-events.ts'
import { newThreadProject } from '../hooks/use-thread-selection.ts'
import { NO_STREAM_MESSAGE, NON_JSON_MESSAGE } from '../lib/stream-messages.ts'

/**
 * The stream's reader checks every event against the contract's schema, and with it comes zod:
 * loaded with the first send rather than with the chat (decision 044), and ahead of it as soon
 * as the person starts typing (chat-view.tsx).
 */
export const loadStreamReader = () => import('../lib/sse-lines.ts')

export interface SendRequest {
  content: string
  threadId: string | null
  isEcoMode: boolean
  useOpenAI: boolean
  clientMessageId: string
  /** Sent as a multipart form with the file when present (spec 7). */
  file?: File | null
  editOf?: string | null
  regenerateOf?: string | null
  /** The reply may search the web (decision 065). */
  webSearch?: boolean
  /** A catalogue model (GET /api/models) instead of the mode's. */
  model?: string | null
  /** "Ask a larger model": with regenerateOf, one step up the eco pool. */
  larger?: boolean
  /** A new thread is made in this project. */
  projectId?: string | null
  /** A temporary chat: nothing is stored; the conversation so far goes along. */
  temporary?: boolean
  history?: { content: string; response: string }[]
}

/** A send that did not end with `done`; `retryable` when trying again may help. */
export class SendError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly event?: ChatEvent,
    /** The HTTP status when the server refused the send before streaming (401: signed out). */
    readonly status?: number,
    /** The server's error code, before or during the stream (`not_found:thread`). */
    readonly code: string | undefined = event?.code,
  ) {
    super(message)
    this.name = 'SendError'
  }
}

const NOT_RETRYABLE_CODES: string[] = [
  chatErrorCodes.unconfigured,
  chatErrorCodes.interrupted,
  USAGE_LIMIT_CODE,
]

function fromErrorEvent(event: ChatEvent): SendError {
  // A reply cut off mid-way is stored as it is; sending again would only replay it.
  const retryable = event.status !== 'interrupted' && !NOT_RETRYABLE_CODES.includes(event.code ?? '')
  return new SendError(event.error || 'Failed to send message', retryable, event)
}

async function open({ file, ...given }: SendRequest, signal: AbortSignal): Promise<Response> {
  // A new thread opened in a project (the thread list's folder) is made there.
  const project =
    !given.threadId && !given.temporary && !given.editOf && !given.regenerateOf ? newThreadProject() : null
  const fields = project && given.projectId === undefined ? { ...given, projectId: project } : given
  let res: Response
  try {
    res = file
      ? await postMessageForm(fields, file, signal)
      : await fetch('/api/messages', {
          method: 'POST',
          credentials: 'include',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(fields),
          signal,
        })
  } catch (err) {
    if (signal.aborted) throw err
    throw new SendError('Failed to send message', true)
  }
  try {
    await throwIfNotOk(res)
  } catch (err) {
    const status = err instanceof ApiError ? err.status : 0
    const text = (err instanceof ApiError && err.serverMessage) || 'Failed to send message'
    const code = err instanceof ApiError ? err.code : undefined
    throw new SendError(text, status >= 500 || status === 408, undefined, status, code)
  }
  return res
}

/** Sends and reads the stream to its end; resolves with the `done` event, throws SendError. */
export async function streamMessage(
  req: SendRequest,
  { signal, onEvent }: { signal: AbortSignal; onEvent: (event: ChatEvent) => void },
): Promise<ChatEvent> {
  const [res, { createSseLineReader }] = await Promise.all([open(req, signal), loadStreamReader()])
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream'))
    throw new SendError(NON_JSON_MESSAGE, false)
  if (!res.body) throw new SendError(NO_STREAM_MESSAGE, false)
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
  const lines = createSseLineReader()
  const handle = (events: ChatEvent[]): ChatEvent | null => {
    for (const event of events) {
      if (event.error) throw fromErrorEvent(event)
      onEvent(event)
      if (event.done) return event
    }
    return null
  }
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<string>
      try {
        chunk = await reader.read()
      } catch (err) {
        if (signal.aborted) throw err
        // The connection dropped: the reply goes on on the server, a resend follows it.
        throw new SendError('The connection was lost', true)
      }
      const end = handle(parseOrThrow(() => (chunk.done ? lines.flush() : lines.push(chunk.value))))
      if (end) return end
      if (chunk.done) throw new SendError('The connection was lost', true)
    }
  } finally {
    reader.cancel().catch(() => undefined)
  }
}

function parseOrThrow(read: () => ChatEvent[]): ChatEvent[] {
  try {
    return read()
  } catch (err) {
    throw new SendError(err instanceof Error ? err.message : NON_JSON_MESSAGE, false)
  }
}
