// A thread deleted in another tab answers 404 `not_found:thread` to its messages and to a send:
// it leaves the list and the cache with a notice, and the chat falls back to Default
// (useThreadSelection picks it once the selection is cleared).
import type { QueryClient } from '@tanstack/react-query'
import { forgetGoneThread } from '#client/features/threads/api/get-threads.ts'
import { clearSelection, getSelection } from '../hooks/use-thread-selection.ts'

export function leaveGoneThread(queryClient: QueryClient, id: string) {
  forgetGoneThread(queryClient, id)
  const shown = getSelection()
  if (shown.kind === 'thread' && shown.id === id) clearSelection()
}
