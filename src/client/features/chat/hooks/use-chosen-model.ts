// A model of the catalogue chosen in the mode menu's "More models" (GET /api/models), instead of a
// mode's own. Kept in local storage like the mode, and per thread: a thread answered by a chosen
// model takes it back when it is selected again. Choosing a mode clears it.
import { useSyncExternalStore } from 'react'

const KEY = 'chat-chosen-model'
const THREADS_KEY = 'chat-chosen-model-by-thread'
/** Threads remembered: the most recent ones, so the stored map stays small. */
const MAX_THREADS = 200

const listeners = new Set<() => void>()
let cached: string | null | undefined

function read(): string | null {
  if (cached !== undefined) return cached
  try {
    cached = localStorage.getItem(KEY) || null
  } catch {
    cached = null
  }
  return cached
}

export function getChosenModel(): string | null {
  return read()
}

export function setChosenModel(id: string | null) {
  cached = id
  try {
    if (id) localStorage.setItem(KEY, id)
    else localStorage.removeItem(KEY)
  } catch {
    // Storage may be full or blocked; the choice still applies to this page.
  }
  for (const l of listeners) l()
}

function threadModels(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(THREADS_KEY) ?? '{}')
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {}
  } catch {
    return {}
  }
}

/** Remembers the model a thread was last sent to (none: its mode's). */
export function rememberThreadModel(threadId: string, id: string | null) {
  const map = threadModels()
  delete map[threadId]
  if (id) map[threadId] = id
  const kept = Object.entries(map).slice(-MAX_THREADS)
  try {
    localStorage.setItem(THREADS_KEY, JSON.stringify(Object.fromEntries(kept)))
  } catch {
    // As above.
  }
}

/** The model a thread was last sent to, or null for its mode's. */
export function threadModel(threadId: string): string | null {
  const id = threadModels()[threadId]
  return typeof id === 'string' ? id : null
}

function subscribe(l: () => void) {
  listeners.add(l)
  const onStorage = (e: StorageEvent) => {
    if (e.key !== KEY) return
    cached = undefined
    l()
  }
  window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(l)
    window.removeEventListener('storage', onStorage)
  }
}

export function useChosenModel(): string | null {
  return useSyncExternalStore(subscribe, read)
}
