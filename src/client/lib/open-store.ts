import { useSyncExternalStore } from 'react'

/**
 * A global open/closed flag for a dialog that many screens can open but one component renders
 * (the sign-in dialog, the upgrade dialog).
 */
export interface OpenStore {
  get(): boolean
  set(next: boolean): void
  subscribe(listener: () => void): () => void
}

export function createOpenStore(): OpenStore {
  let open = false
  const listeners = new Set<() => void>()
  return {
    get: () => open,
    set(next) {
      open = next
      for (const l of listeners) l()
    },
    subscribe(l) {
      listeners.add(l)
      return () => {
        listeners.delete(l)
      }
    },
  }
}

export function useOpenStore(store: OpenStore): boolean {
  return useSyncExternalStore(store.subscribe, store.get)
}
