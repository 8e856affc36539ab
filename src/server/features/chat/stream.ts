// Ways to answer a send as a stream of ChatEvents: follow a generation running here, replay a
// stored reply, or follow one being written by another node through the database.
import { type ChatEvent, chatErrorCodes } from '#contract/chat-events.ts'
import type { Db } from '#server/db/client.ts'
import { sourcesOf } from '#server/lib/stored-message.ts'
import { countSentMessages } from './finalize.ts'
import type { Generation, GenerationEnd, GenerationEvent } from './generation.ts'
import { finishLapsed, LEASE_MS } from './lease.ts'
import { findOwnedMessage, type MessageRow } from './queries.ts'
import { type SseSink, sseResponse } from './sse.ts'
import { TextFrames } from './text-frames.ts'

export type Head = Pick<ChatEvent, 'id' | 'threadId' | 'actualThreadId'>

const POLL_MS = 500

/** actualThreadId is sent when the message lives in another thread than the request named. */
export function headOf(row: Pick<MessageRow, 'id' | 'threadId'>, requested: string | null): Head {
  const threadId = row.threadId ?? undefined
  return threadId && threadId !== requested
    ? { id: row.id, threadId, actualThreadId: threadId }
    : { id: row.id, threadId }
}

export function endEvent(head: Head, end: GenerationEnd): ChatEvent {
  const extra = {
    ...head,
    status: end.outcome.status,
    ...(end.userMessageCount === undefined ? {} : { userMessageCount: end.userMessageCount }),
    ...(end.sources?.length ? { sources: end.sources } : {}),
  }
  if (!end.code) return { ...extra, done: true }
  return { ...extra, error: end.outcome.errorMessage ?? 'The reply failed', code: end.code }
}

/** How a stored, finished reply ends when replayed. */
export function storedEnd(row: MessageRow): GenerationEnd {
  const outcome = {
    status: row.status === 'streaming' ? 'interrupted' : row.status,
    response: row.response,
    errorMessage: row.errorMessage,
  } as const
  const code = !row.errorMessage
    ? null
    : row.status === 'failed'
      ? chatErrorCodes.upstream
      : chatErrorCodes.interrupted
  return { outcome, code, sources: sourcesOf(row.sources) }
}

const start = (sink: SseSink, head: Head) => sink.send({ ...head, status: 'streaming', text: '' })

/** A generation running here, its text written in frames (text-frames.ts), not per token. */
export function followGeneration(gen: Generation, head: Head, signal: AbortSignal): Response {
  return sseResponse(signal, (sink) => {
    start(sink, head)
    const frames = new TextFrames((text) => sink.send({ id: head.id, text }))
    const send = (e: GenerationEvent) => {
      if (e.type === 'text') return frames.add(e.text)
      // Anything else goes after the text before it.
      frames.flush()
      if (e.type === 'wait') sink.send({ id: head.id, wait: e.wait })
      else if (e.type === 'tool-step') sink.send({ id: head.id, toolStep: e.step })
      else if (e.type === 'sources') sink.send({ id: head.id, sources: e.sources })
      else {
        sink.send(endEvent(head, e.end))
        sink.close()
      }
    }
    const sub = gen.subscribe(send)
    for (const e of sub.past) send(e)
    return () => {
      frames.discard()
      sub.unsubscribe()
    }
  })
}

export function replayStored(row: MessageRow, head: Head, signal: AbortSignal, userMessageCount: number) {
  return sseResponse(signal, (sink) => {
    start(sink, head)
    if (row.response) sink.send({ id: row.id, text: row.response })
    sink.send(endEvent(head, { ...storedEnd(row), userMessageCount }))
    sink.close()
    return undefined
  })
}

/** A reply another node is writing: its saved progress, polled, until it ends. */
export function followStored(db: Db, row: MessageRow, head: Head, signal: AbortSignal): Response {
  return sseResponse(signal, (sink) => {
    start(sink, head)
    let sent = ''
    let timer: ReturnType<typeof setTimeout> | undefined
    const poll = async () => {
      let now = await findOwnedMessage(db, row.userId, row.id)
      // The node writing it is gone once its lease lapses: finish it here (as the sweep would),
      // so this ends with what was saved and the reason, and a retry generates again.
      if (now?.status === 'streaming' && Date.now() - now.heartbeatAt.getTime() > LEASE_MS) {
        await finishLapsed(db, { messageId: row.id })
        now = await findOwnedMessage(db, row.userId, row.id)
      }
      if (!now) {
        sink.send({ ...head, error: 'This message was deleted', code: 'not_found:message' })
        return sink.close()
      }
      // Progress only grows; if it was rewritten (a restart), send nothing until it ends.
      if (now.response.startsWith(sent) && now.response.length > sent.length) {
        sink.send({ id: row.id, text: now.response.slice(sent.length) })
        sent = now.response
      }
      if (now.status !== 'streaming') {
        const userMessageCount = await countSentMessages(db, row.userId)
        sink.send(endEvent(head, { ...storedEnd(now), userMessageCount }))
        return sink.close()
      }
      timer = setTimeout(tick, POLL_MS)
    }
    const tick = () => void poll().catch(() => sink.close())
    tick()
    return () => clearTimeout(timer)
  })
}
