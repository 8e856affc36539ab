import { useSyncExternalStore } from 'react'

// The upgrade dialog is opened from the chat's send flow (5th message, spec section 4) and
// from upgrade buttons; one instance rendered by the chat page listens here.
let open = false
const listeners = new Set<() => void>()

export function setUpgradeDialogOpen(next: boolean) {
  open = next
  for (const l of listeners) l()
}

export function useUpgradeDialogOpen(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => open,
  )
}
