// What happens around a send (spec section 4): a visitor's text becomes the pre-auth draft; a
// user's is streamed; afterwards a tree on every even count, the upgrade prompt at exactly 5,
// the new thread shown; on failure the toast and the text back in the composer.
import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef } from 'react'
import { threadsQueryKey } from '#client/app/api/get-threads.ts'
import { userQueryKey, useUser } from '#client/app/api/get-user.ts'
import { setSignInDialogOpen } from '#client/app/hooks/use-sign-in-dialog.ts'
import { setUpgradeDialogOpen } from '#client/app/hooks/use-upgrade-dialog.ts'
import { toast } from '#client/hooks/use-toast.ts'
import { isProNow } from '#client/lib/pro-now.ts'
import type { Message } from '#contract/messages.ts'
import { usePlantTree } from '../api/plant-tree.ts'
import { afterSend } from '../lib/after-send.ts'
import type { ModeFlags } from '../lib/chat-mode.ts'
import { keepTextThrough } from '../lib/composer-text.ts'
import { leaveGoneThread } from '../lib/leave-gone-thread.ts'
import { savePendingDraft } from '../lib/pending-draft.ts'
import { carryWebSearch, readWebSearch } from '../lib/web-search.ts'
import { useChatStream } from './use-chat-stream.ts'
import { type Selection, showThread, useSelection } from './use-thread-selection.ts'

export function useSendFlow({ restoreText }: { restoreText: (text: string) => void }) {
  const { user } = useUser()
  const plantTree = usePlantTree()
  const selection = useSelection()
  // Read when a stream ends, after renders its callbacks did not see.
  const selectionRef = useRef<Selection>(selection)
  selectionRef.current = selection
  const premiumRef = useRef(false)
  premiumRef.current = isProNow(user)

  const queryClient = useQueryClient()
  // The send whose new thread was announced (and followed, if the person was still there).
  const announcedRef = useRef<string | null>(null)
  const stream = useChatStream({
    // The new thread is shown (and in the address, and highlighted) while its first reply is
    // written: a reload then stays in it.
    onThreadCreated: (threadId, sent) => {
      announcedRef.current = sent.clientMessageId
      // The search toggle chosen before the thread existed is the thread's.
      carryWebSearch(sent.threadId ?? 'new', threadId)
      if (keyOf(selectionRef.current) === (sent.threadId ?? 'new')) showThread(threadId)
      void queryClient.invalidateQueries({ queryKey: threadsQueryKey })
    },
    onDone: (end, sent) => {
      // Only follow the new thread if the person is still looking at where they sent from, and it
      // was not followed when it was made: a New thread clicked since is another conversation.
      const announced = announcedRef.current === sent.clientMessageId
      if (end.actualThreadId && !announced && keyOf(selectionRef.current) === (sent.threadId ?? 'new'))
        showThread(end.actualThreadId)
      const after = afterSend(end.userMessageCount, premiumRef.current)
      if (after.plantTree) plantTree.mutate()
      if (after.showUpgrade) setUpgradeDialogOpen(true)
    },
    onFailed: (message, sent, kept, error) => {
      const gone = error?.code === 'not_found:thread' && sent.threadId
      // Deleted in another tab: the notice says so, and the text waits in the composer at Default.
      if (gone) void leaveGoneThread(queryClient, gone)
      else
        toast({
          title: sent.revises ? 'The new version failed' : 'Error sending message',
          description: message || 'Failed to send message',
          variant: 'destructive',
        })
      // A failed edit or regeneration stays in the conversation as a version with Retry, and a
      // reply cut off part-way as it was stored: sending the text again would send it twice.
      if (!sent.revises && !kept) restoreText(sent.content)
      // Refused as signed out (the session ended elsewhere): the page turns to a visitor's
      // (lib/query-client.ts) with the text still in the composer.
      if (error?.status === 401 && !sent.revises)
        keepTextThrough(queryClient.invalidateQueries({ queryKey: userQueryKey }))
    },
  })
  // Signing out stops listening to a reply: its ending must not act for the next visitor.
  const { abort } = stream
  const signedIn = Boolean(user)
  useEffect(() => {
    if (!signedIn) abort()
  }, [signedIn, abort])

  // A send in the moment between sign-in and the threads loading waits for Default to be chosen.
  const queuedRef = useRef<{ text: string; flags: ModeFlags; file: File | null } | null>(null)
  const streamSend = stream.send
  useEffect(() => {
    const queued = queuedRef.current
    if (!queued || selection.kind === 'auto') return
    queuedRef.current = null
    void streamSend({
      content: queued.text,
      threadId: selection.kind === 'thread' ? selection.id : null,
      flags: queued.flags,
      file: queued.file,
      webSearch: readWebSearch(keyOf(selection)),
    })
  }, [selection, streamSend])

  const send = useCallback(
    (text: string, flags: ModeFlags, file: File | null = null) => {
      if (!user) {
        savePendingDraft({ message: text, ...flags })
        setSignInDialogOpen(true)
        return false
      }
      // One send at a time (a second Enter before the first shows): nothing taken from the composer.
      if (stream.sending() || queuedRef.current) return false
      const current = selectionRef.current
      if (current.kind === 'auto') queuedRef.current = { text, flags, file }
      else
        void streamSend({
          content: text,
          threadId: current.kind === 'thread' ? current.id : null,
          flags,
          file,
          webSearch: readWebSearch(keyOf(current)),
        })
      return true
    },
    [user, streamSend, stream.sending],
  )

  /** An edit (new text) or a regeneration (optionally in another mode) of a shown exchange. */
  const revise = useCallback(
    (r: {
      kind: 'edit' | 'regenerate'
      of: Pick<Message, 'id' | 'content' | 'mediaUrl' | 'mediaType' | 'mediaName' | 'mediaMime'>
      content: string
      flags: ModeFlags
      /** A catalogue model; absent: the one chosen in the mode menu. */
      model?: string | null
      larger?: boolean
    }) => {
      const current = selectionRef.current
      if (!user || current.kind !== 'thread') return
      void streamSend({
        content: r.content,
        threadId: current.id,
        flags: r.flags,
        editOf: r.kind === 'edit' ? r.of.id : null,
        regenerateOf: r.kind === 'regenerate' ? r.of.id : null,
        webSearch: readWebSearch(current.id),
        model: r.model,
        larger: r.larger,
        media: {
          mediaUrl: r.of.mediaUrl,
          mediaType: r.of.mediaType,
          mediaName: r.of.mediaName,
          mediaMime: r.of.mediaMime,
        },
      })
    },
    [user, streamSend],
  )

  return { ...stream, send, revise }
}

const keyOf = (s: Selection) => (s.kind === 'thread' ? s.id : s.kind)
