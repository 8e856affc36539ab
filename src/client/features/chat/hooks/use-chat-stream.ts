// The token stream of one send (spec section 4 'Sending a message'): an optimistic exchange that
// fills as chunks arrive, up to 3 attempts (1 s × attempt between them) under one
// clientMessageId so the server never stores the message twice, and Stop.
import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import { addThreadToList, threadsQueryKey } from '#client/app/api/get-threads.ts'
import { noticeSessionEnd } from '#client/lib/query-client.ts'
import type { ChatEvent, ChatWait } from '#contract/chat-events.ts'
import type { ChatModel } from '#contract/config.ts'
import type { Message } from '#contract/messages.ts'
import { threadTitleFrom } from '#contract/thread-titles.ts'
import type { Source, ToolStep } from '#contract/tools.ts'
import { messagesQueryKey, putMessage } from '../api/get-messages.ts'
import { SendError, streamMessage } from '../api/send-message.ts'
import { type ModeFlags, modelFromFlags } from '../lib/chat-mode.ts'
import { getChosenModel, rememberThreadModel } from './use-chosen-model.ts'

const MAX_ATTEMPTS = 3

export interface PendingExchange {
  clientMessageId: string
  /** The thread it was sent to; null for a new thread. */
  threadId: string | null
  serverId: string | null
  actualThreadId: string | null
  content: string
  response: string
  chatModel: ChatModel
  createdAt: string
  /** The file sent with it (shown from memory until the stored message arrives). */
  file: File | null
  /** An edit or regeneration: the exchange it adds a version to (the view ends before it). */
  revises: string | null
  /** A regeneration shows the turn's stored file. */
  media: Pick<Message, 'mediaUrl' | 'mediaType' | 'mediaName' | 'mediaMime'> | null
  /** Why the reply has not started yet (in line, or the eco model being prepared). */
  wait: ChatWait | null
  /** What the reply looked up so far: its sources (numbered from 1) and tool calls. */
  sources: Source[]
  toolSteps: ToolStep[]
}

export interface SendOptions {
  content: string
  threadId: string | null
  flags: ModeFlags
  file?: File | null
  /** New text for this exchange's turn (docs/decisions/012). */
  editOf?: string | null
  /** A new reply to this exchange's text. */
  regenerateOf?: string | null
  /** A catalogue model; absent: the one chosen in the mode menu (null: the mode's). */
  model?: string | null
  /** "Ask a larger model" (with regenerateOf). */
  larger?: boolean
  media?: Pick<Message, 'mediaUrl' | 'mediaType' | 'mediaName' | 'mediaMime'> | null
  /** The reply may search the web (the composer's toggle). */
  webSearch?: boolean
}

export interface StreamCallbacks {
  /** The reply ended (complete, or stopped with what arrived kept). */
  onDone: (end: ChatEvent, sent: PendingExchange) => void
  /**
   * Every attempt failed. `kept`: the reply broke off part-way and the exchange is stored with
   * what arrived (nothing to hand back); else the previous messages are back and the text is
   * handed back.
   */
  onFailed: (message: string, sent: PendingExchange, kept: boolean, error?: SendError) => void
  /** The send made a new thread (its first event): it can be shown before the reply ends. */
  onThreadCreated?: (threadId: string, sent: PendingExchange) => void
}

interface FailedSend {
  key: string
  clientMessageId: string
}

const sendKey = (o: SendOptions) =>
  JSON.stringify([
    o.content,
    o.threadId,
    modelFromFlags(o.flags),
    o.file?.name,
    o.file?.size,
    o.file?.lastModified,
    o.editOf,
    o.regenerateOf,
    o.model,
    o.larger,
  ])
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => clearTimeout(timer), { once: true })
  })

function storedMessage(p: PendingExchange, end: ChatEvent): Message {
  return {
    id: end.id ?? p.serverId ?? p.clientMessageId,
    userId: '',
    threadId: end.threadId ?? p.actualThreadId ?? p.threadId,
    content: p.content,
    response: p.response,
    chatModel: p.chatModel,
    co2Impact: null,
    createdAt: p.createdAt,
    mediaUrl: p.media?.mediaUrl ?? null,
    mediaType: p.media?.mediaType ?? null,
    mediaName: p.media?.mediaName ?? null,
    mediaMime: p.media?.mediaMime ?? null,
    status: end.status ?? 'complete',
    errorMessage: null,
    clientMessageId: p.clientMessageId,
    sources: end.sources ?? p.sources,
    toolSteps: p.toolSteps,
  }
}

/** The steps with this one added, or put in place of its earlier state. */
function withStep(steps: ToolStep[], step: ToolStep): ToolStep[] {
  const at = steps.findIndex((s) => s.id === step.id)
  return at < 0 ? [...steps, step] : steps.map((s, i) => (i === at ? step : s))
}

export function useChatStream(callbacks: StreamCallbacks) {
  const queryClient = useQueryClient()
  const [pending, setPending] = useState<PendingExchange | null>(null)
  const pendingRef = useRef<PendingExchange | null>(null)
  const abortRef = useRef<AbortController | null>(null)
  const failedRef = useRef<FailedSend | null>(null)
  // The failed send handed back to the composer: its stored row stays out of view meanwhile.
  const [handedBack, setHandedBack] = useState<string | null>(null)
  const callbacksRef = useRef(callbacks)
  callbacksRef.current = callbacks

  const update = useCallback((next: PendingExchange | null) => {
    pendingRef.current = next
    setPending(next)
  }, [])

  // Leaving the page only stops listening: the reply goes on and is stored by the server. What
  // is cached of its thread does not have it yet, so it is marked stale: coming back loads the
  // stored exchange (and follows it while it is written) instead of the thread as it was before.
  useEffect(
    () => () => {
      abortRef.current?.abort()
      const left = pendingRef.current
      const threadId = left?.actualThreadId ?? left?.threadId
      if (threadId)
        void queryClient.invalidateQueries({ queryKey: messagesQueryKey(threadId), refetchType: 'none' })
      if (left) void queryClient.invalidateQueries({ queryKey: threadsQueryKey, refetchType: 'none' })
    },
    [queryClient],
  )

  /** The new thread shows in the list at once; a refetch brings the stored one. */
  const listThread = useCallback(
    (p: PendingExchange, threadId: string) => {
      addThreadToList(queryClient, {
        id: threadId,
        title: threadTitleFrom(p.content || p.file?.name || ''),
        isFavorite: false,
        isDefault: false,
        lastMessageAt: new Date().toISOString(),
        chatModel: p.chatModel,
        createdAt: new Date().toISOString(),
      })
    },
    [queryClient],
  )

  /**
   * Puts the finished exchange where the conversation reads it, then lets the server correct it.
   * False when the send was abandoned meanwhile (signed out, left the page): nothing is written.
   */
  const settle = useCallback(
    async (p: PendingExchange, end: ChatEvent, signal: AbortSignal): Promise<boolean> => {
      const message = storedMessage(p, end)
      const threadId = message.threadId
      if (!threadId) return true
      const key = messagesQueryKey(threadId)
      const shown = queryClient.getQueryCache().find({ queryKey: key, type: 'active' }) !== undefined
      const created = Boolean(p.actualThreadId) || !p.threadId
      // With nothing cached yet (a first load still on its way, cancelled by putMessage), the
      // exchange starts the cache of a thread it created or the one in view; the refetch below
      // brings the rest. A new version replaces the turn it revises and what followed it.
      const start = created || shown
      const options = { start, revises: p.revises, signal }
      if (!(await putMessage(queryClient, threadId, message, options))) return false
      if (created) listThread(p, threadId)
      void queryClient.invalidateQueries({ queryKey: key })
      void queryClient.invalidateQueries({ queryKey: threadsQueryKey })
      return true
    },
    [queryClient, listThread],
  )

  const send = useCallback(
    async (options: SendOptions) => {
      if (pendingRef.current) return
      const key = sendKey(options)
      // Sending the same text again after a failure reuses its key: the server retries that row.
      const clientMessageId =
        failedRef.current?.key === key ? failedRef.current.clientMessageId : crypto.randomUUID()
      failedRef.current = null
      setHandedBack(null)
      const controller = new AbortController()
      abortRef.current = controller
      let current: PendingExchange = {
        clientMessageId,
        threadId: options.threadId,
        serverId: null,
        actualThreadId: null,
        content: options.content,
        response: '',
        chatModel: modelFromFlags(options.flags),
        createdAt: new Date().toISOString(),
        file: options.file ?? null,
        revises: options.editOf ?? options.regenerateOf ?? null,
        media: options.media ?? null,
        wait: null,
        sources: [],
        toolSteps: [],
      }
      update(current)
      const onEvent = (event: ChatEvent) => {
        if (controller.signal.aborted) return
        if (event.status === 'streaming') {
          const created = event.actualThreadId && !current.actualThreadId ? event.actualThreadId : null
          // A (re)started stream sends the whole reply so far: start from empty.
          current = {
            ...current,
            serverId: event.id ?? current.serverId,
            actualThreadId: event.actualThreadId ?? current.actualThreadId,
            response: event.text ?? '',
            sources: [],
            toolSteps: [],
          }
          if (created) {
            update(current)
            listThread(current, created)
            callbacksRef.current.onThreadCreated?.(created, current)
            return
          }
        } else if (event.text) {
          current = { ...current, response: current.response + event.text, wait: null }
        } else if (event.wait !== undefined) {
          current = { ...current, wait: event.wait }
        } else if (event.toolStep) {
          current = { ...current, toolSteps: withStep(current.toolSteps, event.toolStep) }
        } else if (event.sources && !event.done) {
          current = { ...current, sources: event.sources }
        } else return
        update(current)
      }
      const request = {
        content: options.content,
        threadId: options.threadId,
        ...options.flags,
        clientMessageId,
        file: options.file ?? null,
        editOf: options.editOf ?? null,
        regenerateOf: options.regenerateOf ?? null,
        ...(options.webSearch ? { webSearch: true } : {}),
        model: options.model === undefined ? getChosenModel() : options.model,
        larger: options.larger ?? false,
      }
      for (let attempt = 1; ; attempt++) {
        try {
          const end = await streamMessage(request, { signal: controller.signal, onEvent })
          current = { ...current, actualThreadId: end.actualThreadId ?? current.actualThreadId }
          const sentTo = end.threadId ?? current.actualThreadId ?? current.threadId
          if (sentTo && !request.regenerateOf) rememberThreadModel(sentTo, request.model)
          if (!(await settle(current, end, controller.signal))) return
          update(null)
          callbacksRef.current.onDone(end, current)
          return
        } catch (err) {
          if (controller.signal.aborted) return
          // Not a query: a 401 here turns the page to the visitor's view as the caches' do.
          noticeSessionEnd(queryClient, err)
          const retryable = err instanceof SendError && err.retryable
          if (retryable && attempt < MAX_ATTEMPTS) {
            await sleep(1000 * attempt, controller.signal)
            if (controller.signal.aborted) return
            continue
          }
          const event = err instanceof SendError ? err.event : undefined
          // A reply cut off part-way is stored with what arrived: show it as stored.
          const kept = event?.status === 'interrupted' && Boolean(event.threadId)
          if (kept && event?.threadId)
            void queryClient.invalidateQueries({ queryKey: messagesQueryKey(event.threadId) })
          else if (current.revises) {
            // A failed version stays in view as a version, with Retry; nothing goes back to the composer.
            if (options.threadId)
              void queryClient.invalidateQueries({ queryKey: messagesQueryKey(options.threadId) })
          } else {
            failedRef.current = { key, clientMessageId }
            setHandedBack(clientMessageId)
          }
          // A send without a thread may have created one before failing.
          void queryClient.invalidateQueries({ queryKey: threadsQueryKey })
          update(null)
          callbacksRef.current.onFailed(
            err instanceof Error && err.message ? err.message : 'Failed to send message',
            current,
            kept,
            err instanceof SendError ? err : undefined,
          )
          return
        }
      }
    },
    [queryClient, settle, update, listThread],
  )

  /**
   * Stops listening (sign-out): the reply goes on on the server; nothing here reacts to it, and
   * a failed send is no longer handed back.
   */
  const abort = useCallback(() => {
    abortRef.current?.abort()
    failedRef.current = null
    setHandedBack(null)
    update(null)
  }, [update])

  /** A send is on its way (read at once, before the render that shows it). */
  const sending = useCallback(() => pendingRef.current !== null, [])

  return { pending, send, abort, sending, isStreaming: pending !== null, handedBack }
}
