// Each thread has its own address (issue 13): /chat/:threadId, /chat/new for an empty
// conversation, /chat as the entry. The address and the selection follow each other, so reload,
// back and forward keep a person in their thread.
import { useEffect } from 'react'
import { useLocation } from 'wouter'
import type { Thread } from '#contract/threads.ts'
import {
  isNewThreadPath,
  type Selection,
  showThread,
  startNewThread,
  threadIdInPath,
  useSelection,
} from './use-thread-selection.ts'

const pathOf = (s: Selection) =>
  s.kind === 'thread' ? `/chat/${s.id}` : s.kind === 'new' ? '/chat/new' : null

export function useThreadUrl(signedIn: boolean, threads: Thread[] | undefined) {
  const [location, navigate] = useLocation()
  const selection = useSelection()

  // Address to selection: back, forward, a typed or shared link.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new address (or sign-in) acts
  useEffect(() => {
    if (!signedIn) return
    const id = threadIdInPath(location)
    if (id && !(selection.kind === 'thread' && selection.id.toLowerCase() === id)) showThread(id)
    else if (isNewThreadPath(location) && selection.kind !== 'new') startNewThread()
  }, [location, signedIn])

  // Selection to address: a thread picked, created or chosen automatically.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new selection acts
  useEffect(() => {
    if (!signedIn) return
    const target = pathOf(selection)
    // Nothing chosen (history cleared): the address lets go of its thread, so the automatic pick
    // (useThreadSelection, which runs after this) does not take it from there.
    if (!target && threadIdInPath(location)) {
      navigate(`/chat${window.location.search}`, { replace: true })
      return
    }
    if (!target || location.toLowerCase().replace(/\/+$/, '') === target.toLowerCase()) return
    const id = threadIdInPath(location)
    // From the entry or an empty new conversation (its first send made the thread), or from an
    // address that named no thread of theirs: replace, so Back never leads to a page that sends
    // them forward again.
    const replace = !id || (threads !== undefined && !threads.some((t) => t.id === id))
    navigate(replace ? `${target}${window.location.search}` : target, { replace })
  }, [selection, signedIn])
}
