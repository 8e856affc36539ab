// Each thread has its own address: /chat/:threadId, /chat/new for an empty
// conversation, /chat as the entry. The address and the selection follow each other, so reload,
// back and forward keep a person in their thread.
//
// Each direction reads the other side as it is now (the address bar, getSelection), not as it was
// when the page rendered: when both changed before one render (Back pressed while the chat was
// still loading: the address names one thread, the automatic pick another), the two effects run
// in the same commit, and with the rendered values each put back what the other had just set,
// forever (React's update-depth error, the page stuck). Read live, the address wins, as it does
// on a load.
import { useEffect } from 'react'
import { useLocation } from 'wouter'
import type { Thread } from '#contract/threads.ts'
import {
  getSelection,
  isNewThreadPath,
  releaseThreadAddress,
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
    const path = window.location.pathname
    const shown = getSelection()
    const id = threadIdInPath(path)
    if (id && !(shown.kind === 'thread' && shown.id.toLowerCase() === id)) showThread(id)
    else if (isNewThreadPath(path) && shown.kind !== 'new') startNewThread()
  }, [location, signedIn])

  // Selection to address: a thread picked, created or chosen automatically.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new selection acts
  useEffect(() => {
    if (!signedIn) return
    const path = window.location.pathname
    const target = pathOf(getSelection())
    // Nothing chosen (history cleared): the address lets go of its thread, so the automatic pick
    // (useThreadSelection, which runs after this) does not take it from there.
    if (!target) {
      releaseThreadAddress()
      return
    }
    if (path.toLowerCase().replace(/\/+$/, '') === target.toLowerCase()) return
    const id = threadIdInPath(path)
    // From the entry or an empty new conversation (its first send made the thread), or from an
    // address that named no thread of theirs: replace, so Back never leads to a page that sends
    // them forward again.
    const replace = !id || (threads !== undefined && !threads.some((t) => t.id === id))
    navigate(replace ? `${target}${window.location.search}` : target, { replace })
  }, [selection, signedIn])
}
