import { useSyncExternalStore } from 'react'

// Any screen can ask for the sign-in dialog (header button, a visitor's send); one instance
// rendered by the app shell listens here.
let open = false
const listeners = new Set<() => void>()

export function setSignInDialogOpen(next: boolean) {
  open = next
  for (const l of listeners) l()
}

export function useSignInDialogOpen(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => open,
  )
}
