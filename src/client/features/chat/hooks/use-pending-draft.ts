// The pre-auth draft (spec section 4): once a user exists and a thread is chosen, the visitor's
// stored message is restored with its mode and sent after 100 ms. Google sign-in comes back to
// /chat?auth=google, a new page load: the draft is still in session storage and sent the same way.
import { useEffect, useRef } from 'react'
import type { ModeFlags } from '../lib/chat-mode.ts'
import { type PendingDraft, takePendingDraft } from '../lib/pending-draft.ts'
import { setModeFlags } from './use-chat-mode.ts'

const SEND_DELAY_MS = 100

export function usePendingDraft({
  ready,
  send,
  resolveFlags = (flags) => flags,
}: {
  /** Signed in, a thread chosen, nothing streaming, the server's modes known. */
  ready: boolean
  send: (text: string, flags: ModeFlags) => void
  /** The draft's mode when this server serves it, else the server's default. */
  resolveFlags?: (flags: ModeFlags) => ModeFlags
}) {
  // Taken from storage once; kept here so a re-run effect (Strict Mode) still sends it.
  const draftRef = useRef<PendingDraft | null>(null)
  const sendRef = useRef(send)
  sendRef.current = send
  const resolveRef = useRef(resolveFlags)
  resolveRef.current = resolveFlags
  useEffect(() => {
    if (!ready) return
    draftRef.current ??= takePendingDraft()
    const draft = draftRef.current
    if (!draft) return
    const flags = resolveRef.current({ isEcoMode: draft.isEcoMode, useOpenAI: draft.useOpenAI })
    setModeFlags(flags)
    const timer = setTimeout(() => {
      draftRef.current = null
      sendRef.current(draft.message, flags)
    }, SEND_DELAY_MS)
    return () => clearTimeout(timer)
  }, [ready])
}
