// An exchange to bring into view once its thread is shown (a search match was chosen). Read by
// the conversation, which then skips its usual jump to the end until the match is shown or known
// to be missing.
import { useSyncExternalStore } from 'react'

export interface FocusedMessage {
  messageId: string
  threadId: string
}

let focused: FocusedMessage | null = null
const listeners = new Set<() => void>()

function set(next: FocusedMessage | null) {
  focused = next
  for (const l of listeners) l()
}

export const focusMessage = (messageId: string, threadId: string) => set({ messageId, threadId })
export const clearFocusedMessage = () => set(null)
export const pendingFocus = () => focused

export function useFocusedMessage(): FocusedMessage | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => focused,
  )
}
