// Whether the temporary chat is open: until another thread (or New thread) is chosen. It is
// tied to the selection it was opened over; any later pick makes a new selection and closes it.
import { useSyncExternalStore } from 'react'
import { getSelection, type Selection, useSelection } from './use-thread-selection.ts'

let openedOver: Selection | null = null
const listeners = new Set<() => void>()

export function openTemporaryChat() {
  openedOver = getSelection()
  for (const l of listeners) l()
}

export function useTemporaryChatOpen(): boolean {
  const selection = useSelection()
  const over = useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => openedOver,
  )
  return over !== null && over === selection
}
