// The thread list wired to the selection (spec section 4): picking a thread shows it and takes
// its mode; deleting the shown one goes back to Default.

import { useThreads } from '#client/features/threads/api/get-threads.ts'
import { ThreadList } from '#client/features/threads/components/thread-list.tsx'
import type { Thread } from '#contract/threads.ts'
import { clearSelection, selectThread, startNewThread, useSelection } from '../hooks/use-thread-selection.ts'

export function ThreadsPanel({ onPicked }: { onPicked?: () => void }) {
  const threads = useThreads(true)
  const selection = useSelection()
  return (
    <ThreadList
      threads={threads.data}
      isLoading={threads.isLoading}
      error={threads.error}
      onRetry={() => void threads.refetch()}
      selectedId={selection.kind === 'thread' ? selection.id : null}
      onSelect={(thread: Thread) => {
        selectThread(thread)
        onPicked?.()
      }}
      onNewThread={() => {
        startNewThread()
        onPicked?.()
      }}
      onDeleted={(id) => {
        if (selection.kind === 'thread' && selection.id === id) clearSelection()
      }}
    />
  )
}
