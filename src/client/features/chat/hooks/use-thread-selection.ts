// Which thread the chat shows (spec section 4 'Thread selection'). 'auto' means nothing chosen
// yet: once the threads load, the one in the address (/chat/:threadId), else Default (else the
// most recent) is picked. 'new' is an empty conversation whose first send creates a thread.
// The address says which (use-thread-url.ts), and a tab keeps it so a reload stays put.

import { useEffect, useSyncExternalStore } from 'react'
import { navigate } from 'wouter/use-browser-location'
import { forgetOnSessionEnd } from '#client/app/api/get-user.ts'
import type { Thread } from '#contract/threads.ts'
import { setChatModel } from './use-chat-mode.ts'
import { setChosenModel, threadModel } from './use-chosen-model.ts'

export type Selection = { kind: 'auto' } | { kind: 'new' } | { kind: 'thread'; id: string }

const STORAGE_KEY = 'chat-selected-thread'
const listeners = new Set<() => void>()
let selection: Selection = readStored()

const THREAD_PATH = /^\/chat\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i
const NEW_PATH = /^\/chat\/new\/?$/i

/** The thread id in a /chat/:threadId path (lower case), or null. */
export function threadIdInPath(pathname: string): string | null {
  return THREAD_PATH.exec(pathname)?.[1]?.toLowerCase() ?? null
}

/** /chat/new: the empty conversation whose first send makes a thread. */
export function isNewThreadPath(pathname: string): boolean {
  return NEW_PATH.test(pathname)
}

function readStored(): Selection {
  try {
    // The address wins: a link or a reload on /chat/:threadId shows that thread.
    const path = window.location.pathname
    const inPath = threadIdInPath(path)
    if (inPath) return { kind: 'thread', id: inPath }
    if (isNewThreadPath(path)) return { kind: 'new' }
    const id = sessionStorage.getItem(STORAGE_KEY)
    return id ? { kind: 'thread', id } : { kind: 'auto' }
  } catch {
    return { kind: 'auto' }
  }
}

function set(next: Selection) {
  selection = next
  try {
    if (next.kind === 'thread') sessionStorage.setItem(STORAGE_KEY, next.id)
    else sessionStorage.removeItem(STORAGE_KEY)
  } catch {
    // Not persisted; the selection still holds for this page.
  }
  for (const l of listeners) l()
}

/** A person picked a thread: show it and take its mode. */
export function selectThread(thread: Pick<Thread, 'id' | 'chatModel'>) {
  set({ kind: 'thread', id: thread.id })
  setChatModel(thread.chatModel)
  setChosenModel(threadModel(thread.id))
}

/** Shows a thread without touching the mode (a send that created it, an automatic pick). */
export function showThread(id: string) {
  set({ kind: 'thread', id })
}

// The project a new conversation is started in (its folder's New thread), until another is chosen.
let projectOfNew: string | null = null

export function startNewThread(projectId: string | null = null) {
  projectOfNew = projectId
  set({ kind: 'new' })
}

/** The project the new conversation's first send makes its thread in, if any. */
export function newThreadProject(): string | null {
  return selection.kind === 'new' ? projectOfNew : null
}

/** The selection now, outside React (a failure handler deciding whether to leave the thread). */
export function getSelection(): Selection {
  return selection
}

export function clearSelection() {
  set({ kind: 'auto' })
}

/** The address lets go of its thread (/chat), replaced: nothing chosen is shown under a thread's. */
export function releaseThreadAddress() {
  if (threadIdInPath(window.location.pathname)) navigate(`/chat${window.location.search}`, { replace: true })
}

// The next person on this browser starts from their own Default, not the last one's thread: the
// address lets go of it too, or their sign-in in this tab would open it (a 404 for them).
forgetOnSessionEnd(() => {
  clearSelection()
  releaseThreadAddress()
})

function subscribe(l: () => void) {
  listeners.add(l)
  return () => listeners.delete(l)
}

export function useSelection(): Selection {
  return useSyncExternalStore(subscribe, () => selection)
}

/** Default, else the most recent by lastMessageAt. */
export function initialThread(threads: Thread[]): Thread | undefined {
  const byDefault = threads.find((t) => t.isDefault)
  if (byDefault) return byDefault
  return [...threads].sort((a, b) => Date.parse(b.lastMessageAt) - Date.parse(a.lastMessageAt))[0]
}

/**
 * Makes the automatic pick before the chat first renders (its prepare step), by the
 * rules of useThreadSelection and useThreadUrl below, which would otherwise make it right after
 * mounting: nothing chosen, or a thread that a complete list does not hold, becomes the one in
 * the address, else Default, and the address follows (replaced, as they replace it). The chat
 * then renders once, not three times. Returns the thread about to be shown, if any.
 */
export function pickUpcomingThread(threads: Thread[], complete: boolean): string | null {
  const current = selection
  const missing = complete && current.kind === 'thread' && !threads.some((t) => t.id === current.id)
  if (current.kind === 'thread' && !missing) return current.id
  if (current.kind === 'new' || (current.kind === 'thread' && !complete)) return null
  const pick = automaticPick(threads, complete)
  if (!pick) return null // left to the page (a missing thread with no other: a new conversation)
  showThread(pick)
  if (threadIdInPath(window.location.pathname) !== pick.toLowerCase())
    navigate(`/chat/${pick}${window.location.search}`, { replace: true })
  return pick
}

/**
 * The thread the address names when it may be the person's: listed, or past the pages loaded
 * (a thread that is not theirs then answers 404 and is left quietly, leave-gone-thread.ts). Else
 * Default, else the most recent. The address is read as it is now: Back pressed while the chat
 * was loading names a thread the list's first page may not hold, and must not be undone.
 */
function automaticPick(threads: Thread[], complete: boolean): string | undefined {
  const inPath = threadIdInPath(window.location.pathname)
  const listed = threads.find((t) => t.id.toLowerCase() === inPath)
  if (listed) return listed.id
  if (inPath && !complete) return inPath
  return initialThread(threads)?.id
}

/**
 * Applies the rules: signed out clears the selection; signed in with nothing selected (or a
 * selected thread that no longer exists) picks Default. Returns the thread id to show.
 * `complete` is false while older pages of the list are not loaded: a thread not among the
 * loaded ones may still exist then.
 */
export function useThreadSelection(
  signedIn: boolean,
  threads: Thread[] | undefined,
  complete = true,
): Selection {
  const current = useSelection()
  useEffect(() => {
    if (!signedIn) {
      if (current.kind !== 'auto') clearSelection()
      return
    }
    if (!threads) return
    // As it is now: the address's effects, just before this one, may have changed it (use-thread-url.ts).
    const shown = selection
    const missing = complete && shown.kind === 'thread' && !threads.some((t) => t.id === shown.id)
    if (shown.kind === 'auto' || missing) {
      const pick = automaticPick(threads, complete)
      if (pick) showThread(pick)
      else if (missing) startNewThread()
    }
  }, [signedIn, threads, current, complete])
  return current
}
