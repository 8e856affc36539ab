// An exchange to bring into view once its thread is shown (a search match was chosen). Read by
// the conversation, which then skips its usual jump to the end.
import { useSyncExternalStore } from 'react'

let focused: string | null = null
const listeners = new Set<() => void>()

function set(id: string | null) {
  focused = id
  for (const l of listeners) l()
}

export const focusMessage = (id: string) => set(id)
export const clearFocusedMessage = () => set(null)
export const pendingFocus = () => focused

export function useFocusedMessage(): string | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => focused,
  )
}
