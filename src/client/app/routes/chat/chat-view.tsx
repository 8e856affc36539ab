// The chat column: the conversation (or an empty state) above the composer, whose text (kept in
// composer-text.ts, so it outlives the column) a failed send puts back.
import { useQueryClient } from '@tanstack/react-query'
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useAppConfig } from '#client/app/api/get-config.ts'
import { useThreads } from '#client/app/api/get-threads.ts'
import { useUser } from '#client/app/api/get-user.ts'
import { getDraftFile, setDraftFile, useAttachmentDraft } from '#client/app/hooks/use-attachment-draft.ts'
import { Button } from '#client/components/ui/button.tsx'
import { Spinner } from '#client/components/ui/spinner.tsx'
import { AttachmentChip } from '#client/features/attachments/components/attachment-chip.tsx'
import { AttachmentMenu } from '#client/features/attachments/components/attachment-menu.tsx'
import { FileDropZone } from '#client/features/attachments/components/file-drop-zone.tsx'
import { useObjectUrl } from '#client/features/attachments/hooks/use-object-url.ts'
import { VerifyEmailBanner } from '#client/features/auth/components/verify-email-banner.tsx'
import { FetchMessagesError, useMessages } from '#client/features/chat/api/get-messages.ts'
import { useSelectVersion } from '#client/features/chat/api/select-version.ts'
import { loadStreamReader } from '#client/features/chat/api/send-message.ts'
import { useStopMessage } from '#client/features/chat/api/stop-message.ts'
import { Composer } from '#client/features/chat/components/composer.tsx'
import type { ConversationItem } from '#client/features/chat/components/conversation.tsx'
import {
  type ExchangeActions,
  ExchangeActionsContext,
} from '#client/features/chat/components/exchange-actions.tsx'
import { NoModeNotice } from '#client/features/chat/components/no-mode-notice.tsx'
import { PreSendEstimate } from '#client/features/chat/components/pre-send-estimate.tsx'
import { SearchToggle } from '#client/features/chat/components/search-toggle.tsx'
import { VisitorEmptyState } from '#client/features/chat/components/visitor-empty-state.tsx'
import { getModeFlags, useChatMode } from '#client/features/chat/hooks/use-chat-mode.ts'
import { useDefaultMode } from '#client/features/chat/hooks/use-default-mode.ts'
import { useOverlayInsets } from '#client/features/chat/hooks/use-overlay-insets.ts'
import { usePendingDraft } from '#client/features/chat/hooks/use-pending-draft.ts'
import { useSendFlow } from '#client/features/chat/hooks/use-send-flow.ts'
import { selectThread, useSelection } from '#client/features/chat/hooks/use-thread-selection.ts'
import {
  flagsFromModel,
  type ModeFlags,
  modelFromFlags,
  resolveMode,
  sendBlockedReason,
} from '#client/features/chat/lib/chat-mode.ts'
import { useComposerText } from '#client/features/chat/lib/composer-text.ts'
import { leaveGoneThread } from '#client/features/chat/lib/leave-gone-thread.ts'
import { useCreateThreadFromMessage } from '#client/features/threads/api/create-from-message.ts'
import { VoiceButton, voicePlaceholder } from '#client/features/voice/components/voice-button.tsx'
import { useVoiceRecorder } from '#client/features/voice/hooks/use-voice-recorder.ts'
import { mediaTypeOfFile } from '#client/lib/file-kinds.ts'

// The conversation (markdown and GFM: most of the chat's code) is loaded only when there is one
// to show, so an empty chat and a visitor's chat paint without it (decision 018).
const loadConversation = () => import('#client/features/chat/components/conversation.tsx')
const Conversation = lazy(() => loadConversation().then((m) => ({ default: m.Conversation })))

function SignedInEmpty({ noMode }: { noMode: boolean }) {
  return (
    <div className="flex min-h-0 flex-1 flex-col items-center justify-center px-4 text-center">
      {noMode ? (
        <NoModeNotice />
      ) : (
        <>
          <h2 className="text-2xl font-semibold">Loris is ready to help</h2>
          <p className="mt-2 text-muted-foreground">Ask away and start making a positive impact</p>
        </>
      )}
    </div>
  )
}

export function ChatView() {
  const { user } = useUser()
  const selection = useSelection()
  const threadId = selection.kind === 'thread' ? selection.id : null
  const [text, setText] = useComposerText()
  const [scrollDelayMs, setScrollDelayMs] = useState(100)
  const inputRef = useRef<HTMLTextAreaElement>(null)

  // The file of the latest send: a failed send hands it back with its text.
  const sentFileRef = useRef<File | null>(null)
  const restoreText = useCallback(
    (sent: string) => {
      // What was written meanwhile (the attempts take seconds) stays, after the failed text.
      setText((current) =>
        !current.trim() ? sent : current.includes(sent) ? current : `${sent}\n\n${current}`,
      )
      if (sentFileRef.current && !getDraftFile()) setDraftFile({ file: sentFileRef.current })
      inputRef.current?.focus()
    },
    [setText],
  )
  const { draft } = useAttachmentDraft()
  // Spec 4: the recognised words go into the input, and focus returns to it 100 ms later.
  const voice = useVoiceRecorder({
    onText: (words) => {
      setText((current) => (current.trim() ? `${current.trimEnd()} ${words}` : words))
      setTimeout(() => inputRef.current?.focus(), 100)
    },
  })
  const flow = useSendFlow({ restoreText })
  const { pending, handedBack } = flow
  const messages = useMessages(threadId, Boolean(user), pending?.serverId ?? null)
  const queryClient = useQueryClient()
  const gone = messages.error instanceof FetchMessagesError && messages.error.code === 'not_found:thread'
  useEffect(() => {
    if (gone && threadId) void leaveGoneThread(queryClient, threadId)
  }, [gone, threadId, queryClient])
  const stop = useStopMessage()
  const threads = useThreads(Boolean(user))
  const createThread = useCreateThreadFromMessage({ onCreated: selectThread })
  const selectVersion = useSelectVersion()
  const config = useAppConfig()
  const { model } = useChatMode()
  useDefaultMode()
  const unavailableReason = sendBlockedReason(model, config)
  const noMode = config?.defaultChatModel === null

  const send = useCallback(
    (content: string, flags: ModeFlags, fromDraft = false) => {
      setScrollDelayMs(fromDraft ? 500 : 100)
      // A visitor's file stays chosen (in memory) through sign-in and goes with the draft.
      const file = getDraftFile()
      if (flow.send(content, flags, file)) {
        sentFileRef.current = file
        setText((current) => (current.trim() === content ? '' : current))
        if (file) setDraftFile(null)
      }
    },
    [flow.send, setText],
  )
  usePendingDraft({
    // The config decides the mode the draft goes in: its own if available, else the default.
    ready: Boolean(user) && selection.kind !== 'auto' && !pending && Boolean(config),
    send: (content, flags) => send(content, flags, true),
    resolveFlags: (flags) => flagsFromModel(resolveMode(modelFromFlags(flags), config)),
  })

  const pendingFileUrl = useObjectUrl(pending?.file)
  const viewKey = threadId ?? selection.kind
  // Stored exchanges change only with the list, so a streaming chunk re-renders one row only.
  const serverId = pending?.serverId
  // Older exchanges, a page at a time as the reader scrolls up.
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = messages
  const loadOlder = useMemo(
    () => (hasNextPage && !isFetchingNextPage ? () => void fetchNextPage() : undefined),
    [hasNextPage, isFetchingNextPage, fetchNextPage],
  )
  const stored = useMemo<ConversationItem[]>(
    () =>
      (messages.data ?? [])
        .filter((m) => m.id !== serverId && !(handedBack && m.clientMessageId === handedBack))
        .map((m) => ({ key: m.clientMessageId ?? m.id, exchange: { ...m, pending: false } })),
    [messages.data, serverId, handedBack],
  )
  const items = useMemo<ConversationItem[]>(() => {
    // A new thread's exchange belongs to the new conversation it was sent from only until the
    // thread exists: a New thread clicked after that is another, empty, conversation.
    const here =
      pending &&
      (threadId === null
        ? pending.threadId === null && !pending.actualThreadId
        : pending.threadId === threadId || pending.actualThreadId === threadId)
    if (!pending || !here) return stored
    const exchange = {
      id: pending.serverId,
      content: pending.content,
      response: pending.response,
      chatModel: pending.chatModel,
      mediaUrl: pending.media ? pending.media.mediaUrl : pendingFileUrl,
      mediaType: pending.media
        ? pending.media.mediaType
        : pending.file
          ? mediaTypeOfFile(pending.file)
          : null,
      mediaName: pending.media ? pending.media.mediaName : (pending.file?.name ?? null),
      mediaMime: pending.media ? pending.media.mediaMime : (pending.file?.type ?? null),
      status: 'streaming' as const,
      errorMessage: null,
      createdAt: pending.createdAt,
      co2Impact: null,
      pending: true,
      wait: pending.wait,
      sources: pending.sources,
      toolSteps: pending.toolSteps,
    }
    // A new version takes the place of the turn it revises; what followed belongs to the old one.
    const at = pending.revises ? stored.findIndex((i) => i.exchange.id === pending.revises) : -1
    return [...(at >= 0 ? stored.slice(0, at) : stored), { key: pending.clientMessageId, exchange }]
  }, [stored, pending, threadId, pendingFileUrl])

  // The conversation's code is fetched beside the messages of a thread that has had any (an
  // untouched thread, like a new account's Default, only shows the empty state), and as soon as
  // something is being written, so it is there by the time the first exchange shows.
  const shownThread = threads.data?.find((t) => t.id === threadId)
  const threadHasHistory =
    threadId !== null && (!shownThread || shownThread.lastMessageAt !== shownThread.createdAt)
  const conversationWanted =
    Boolean(user) && (items.length > 0 || threadHasHistory || text.trim() !== '' || Boolean(pending))
  useEffect(() => {
    if (!conversationWanted) return
    void loadConversation()
    void loadStreamReader()
  }, [conversationWanted])

  // Stop the reply this tab is streaming, or one still being written after a reload.
  // The conversation the next reply builds on, for the composer's footprint estimate.
  const historyChars = useMemo(
    () => (messages.data ?? []).reduce((n, m) => n + m.content.length + m.response.length, 0),
    [messages.data],
  )
  const streamingId = pending?.serverId ?? messages.data?.find((m) => m.status === 'streaming')?.id ?? null
  // A version switch on its way writes the branch it answers: no send or new version meanwhile.
  const busy = Boolean(pending) || Boolean(streamingId) || selectVersion.isPending

  const { revise } = flow
  const actions = useMemo<ExchangeActions>(
    () => ({
      busy,
      edit: (of, content) => revise({ kind: 'edit', of, content, flags: getModeFlags() }),
      regenerate: (of, model, catalogueModel) =>
        revise({
          kind: 'regenerate',
          of,
          content: of.content,
          flags: flagsFromModel(model),
          model: catalogueModel ?? null,
        }),
      askLarger: (of) =>
        revise({
          kind: 'regenerate',
          of,
          content: of.content,
          flags: flagsFromModel('loris'),
          model: null,
          larger: true,
        }),
      selectVersion: (id) => {
        if (threadId) selectVersion.mutate({ id, threadId })
      },
      newThread: (id) => createThread.mutate(id),
      creatingThread: createThread.isPending,
    }),
    [busy, revise, threadId, selectVersion.mutate, createThread.mutate, createThread.isPending],
  )

  // The open conversation's title above it (the visitor view shows its own heading).
  const shownTitle = shownThread?.title ?? (selection.kind === 'new' ? 'New conversation' : 'Chat')
  const loadingMessages = <Spinner className="m-auto size-6" label="Loading messages" />
  let main: React.ReactNode
  if (!user) main = <VisitorEmptyState noMode={noMode} />
  // Until the threads load nothing is chosen yet: wait rather than flash the empty state.
  // A thread made by this send is shown while its first reply arrives: keep showing that reply.
  else if ((messages.isLoading && !items.length) || selection.kind === 'auto') main = loadingMessages
  // A failed refresh keeps the exchanges on screen (a notice above them offers to retry): only a
  // thread never loaded gives way to the error; a thread gone elsewhere is left quietly.
  else if (messages.error && !messages.data && !gone)
    main = (
      <div className="m-auto text-center text-sm">
        <p role="alert">Failed to fetch messages</p>
        <Button variant="link" size="sm" onClick={() => void messages.refetch()}>
          Try again
        </Button>
      </div>
    )
  else if (!items.length) main = <SignedInEmpty noMode={noMode} />
  const conversation = user && !main
  const olderFailed = conversation && messages.error

  // Spec section 9: the conversation area is the viewport minus 140 px (decision 053). What sits
  // above it (the e-mail reminder, the title) and the composer below float over its edges, and
  // its content is kept clear of them.
  const topRef = useRef<HTMLDivElement>(null)
  const areaRef = useRef<HTMLDivElement>(null)
  const bottomRef = useRef<HTMLDivElement>(null)
  const insets = useOverlayInsets(topRef, areaRef, bottomRef)

  return (
    <FileDropZone className="flex h-full min-h-0 flex-col">
      <div ref={topRef} className="absolute inset-x-0 top-0 z-10 bg-background">
        <VerifyEmailBanner />
        {user && (
          <h1
            data-testid="conversation-title"
            className="mx-auto w-full max-w-5xl truncate px-4 py-1.5 text-sm font-medium text-muted-foreground"
          >
            {shownTitle}
          </h1>
        )}
        {olderFailed && (
          <p role="alert" className="mx-auto w-full max-w-5xl px-4 pb-1 text-xs text-muted-foreground">
            Couldn't load older messages —{' '}
            <Button
              variant="link"
              size="sm"
              className="h-auto p-0 text-xs"
              onClick={() => void messages.refetch()}
            >
              Retry
            </Button>
          </p>
        )}
      </div>
      <div ref={areaRef} className="flex h-[calc(100dvh-140px)] min-h-0 shrink-0 flex-col">
        <ExchangeActionsContext.Provider value={actions}>
          {conversation ? (
            <Suspense fallback={loadingMessages}>
              <Conversation
                items={items}
                loading={Boolean(pending)}
                scrollDelayMs={scrollDelayMs}
                resetKey={viewKey}
                onReachTop={loadOlder}
                complete={!hasNextPage}
                insets={insets}
              />
            </Suspense>
          ) : (
            <div
              className="flex min-h-0 flex-1 flex-col"
              style={{ paddingTop: insets.top, paddingBottom: insets.bottom }}
            >
              {main}
            </div>
          )}
        </ExchangeActionsContext.Provider>
      </div>
      <div ref={bottomRef} className="absolute inset-x-0 bottom-0 z-10 bg-background">
        <Composer
          ref={inputRef}
          value={text}
          onChange={setText}
          busy={busy}
          onSend={() => send(text.trim(), getModeFlags())}
          onStop={streamingId ? () => stop.mutate(streamingId) : undefined}
          hasFile={Boolean(draft)}
          unavailableReason={unavailableReason}
          blocked={voice.state !== 'idle'}
          placeholder={voicePlaceholder(voice)}
          attachment={<AttachmentChip />}
          estimate={<PreSendEstimate text={text} historyChars={historyChars} />}
          tools={
            <>
              <AttachmentMenu disabled={voice.state !== 'idle'} />
              <VoiceButton voice={voice} />
              <SearchToggle
                threadKey={selection.kind === 'thread' ? selection.id : selection.kind}
                unavailableReason={config && !config.webSearch.available ? config.webSearch.reason : null}
              />
            </>
          }
        />
      </div>
    </FileDropZone>
  )
}
