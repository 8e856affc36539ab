// Helpers for chat API tests: read a POST /api/messages event stream, wait for a detached reply.
import { eq } from 'drizzle-orm'
import { createLineSplitter } from '#client/features/chat/lib/sse-lines.ts'
import { type ChatEvent, parseChatEventLine } from '#contract/chat-events.ts'
import type { Db } from '#server/db/client.ts'
import { messages, users } from '#server/db/schema/index.ts'

/** Every event of a finished stream, in order. Fails on lines that are neither events nor comments. */
export async function readEvents(res: Response): Promise<ChatEvent[]> {
  const text = await res.text()
  const events: ChatEvent[] = []
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith(':')) continue
    const event = parseChatEventLine(line)
    if (!event) throw new Error(`not an event line: ${line}`)
    events.push(event)
  }
  return events
}

/** Reads a stream event by event, leaving it open between calls (for aborts and Stop mid-reply). */
export function eventReader(res: Response) {
  const reader = res.body?.pipeThrough(new TextDecoderStream()).getReader()
  if (!reader) throw new Error('no body')
  const seen: ChatEvent[] = []
  const queued: ChatEvent[] = []
  const lines = createLineSplitter()
  async function next(): Promise<ChatEvent | null> {
    while (queued.length === 0) {
      const { value, done } = await reader!.read()
      if (done) return null
      for (const line of lines.push(value)) {
        const event = parseChatEventLine(line)
        if (event) queued.push(event)
      }
    }
    const event = queued.shift() as ChatEvent
    seen.push(event)
    return event
  }
  return {
    seen,
    /** Reads until an event matches; fails if the stream ends first. */
    async until(match: (e: ChatEvent) => boolean): Promise<ChatEvent> {
      for (;;) {
        const event = await next()
        if (!event) throw new Error(`stream ended first: ${JSON.stringify(seen)}`)
        if (match(event)) return event
      }
    },
    /** Reads to the end of the stream; every event seen so far. */
    async rest(): Promise<ChatEvent[]> {
      while (await next());
      return seen
    },
  }
}

export const replyText = (events: ChatEvent[]) => events.map((e) => e.text ?? '').join('')

/** Polls until `check` returns a value; fails after `timeoutMs` (a safety net, not an assertion). */
export async function waitFor<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error('waitFor: condition not met in time')
    await new Promise((r) => setTimeout(r, 25))
  }
}

export async function messageRow(db: Db, id: string) {
  const [row] = await db.select().from(messages).where(eq(messages.id, id))
  return row
}

/** The person's usage, reservation and replies generating, as the limits read them (null: no such person). */
export async function usageOf(db: Db, userId: string) {
  const [row] = await db
    .select({
      input: users.aiInputChars,
      output: users.aiOutputChars,
      reserved: users.aiReservedChars,
      generating: users.aiGenerating,
    })
    .from(users)
    .where(eq(users.id, userId))
  return row ?? null
}

/** Waits until the reply has left 'streaming' and returns the stored row. */
export function settled(db: Db, id: string) {
  return waitFor(async () => {
    const row = await messageRow(db, id)
    return row && row.status !== 'streaming' ? row : undefined
  })
}
