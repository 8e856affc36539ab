// The composer's search toggle, remembered per thread in this browser (localStorage, by thread id;
// 'new' for a conversation not yet made, carried over to the thread it makes). Decision 065.
import { useCallback, useSyncExternalStore } from 'react'

const PREFIX = 'chat-web-search:'
const listeners = new Set<() => void>()

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null
  } catch {
    return null
  }
}

export function readWebSearch(threadKey: string): boolean {
  return storage()?.getItem(PREFIX + threadKey) === 'on'
}

export function writeWebSearch(threadKey: string, on: boolean): void {
  const s = storage()
  if (!s) return
  try {
    if (on) s.setItem(PREFIX + threadKey, 'on')
    else s.removeItem(PREFIX + threadKey)
  } catch {
    // Storage full or refused: the toggle still works for this page.
  }
  for (const l of listeners) l()
}

/** A new conversation's choice becomes its thread's once the thread exists. */
export function carryWebSearch(from: string, to: string): void {
  if (readWebSearch(from)) writeWebSearch(to, true)
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  const onStorage = (e: StorageEvent) => {
    if (e.key?.startsWith(PREFIX)) listener()
  }
  window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('storage', onStorage)
  }
}

export function useWebSearch(threadKey: string): [boolean, (on: boolean) => void] {
  const on = useSyncExternalStore(
    subscribe,
    () => readWebSearch(threadKey),
    () => false,
  )
  const set = useCallback((value: boolean) => writeWebSearch(threadKey, value), [threadKey])
  return [on, set]
}
