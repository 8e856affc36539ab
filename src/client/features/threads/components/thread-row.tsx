import MessageSquare from 'lucide-react/icons/message-square'
import Pin from 'lucide-react/icons/pin'
import Star from 'lucide-react/icons/star'
import { memo } from 'react'
import { cn } from '#client/lib/cn.ts'
import type { Thread } from '#contract/threads.ts'
import { type ThreadActionHandlers, ThreadActionsButton, ThreadContextMenu } from './thread-actions.tsx'

/** One thread in the list; Default has no actions (spec section 5). */
export const ThreadRow = memo(function ThreadRow({
  thread,
  selected,
  onSelect,
  handlers,
}: {
  thread: Thread
  selected: boolean
  onSelect: (thread: Thread) => void
  handlers: ThreadActionHandlers
}) {
  const Icon = thread.isDefault ? Pin : thread.isFavorite ? Star : MessageSquare
  const row = (
    <div
      data-testid="thread-row"
      className={cn(
        'group flex h-9 select-none items-center gap-1 rounded-md pr-1 text-sm transition-colors hover:bg-accent',
        selected && 'bg-accent text-accent-foreground',
      )}
    >
      <button
        type="button"
        aria-current={selected ? 'true' : undefined}
        onClick={() => onSelect(thread)}
        className="flex h-full min-w-0 flex-1 items-center gap-2 rounded-md px-2 text-left"
        // A long press opens the context menu on touch; keep the browser's own menu out of it.
        style={{ WebkitTouchCallout: 'none' }}
      >
        <Icon
          className={cn(
            'size-4 shrink-0 text-muted-foreground',
            thread.isFavorite && !thread.isDefault && 'text-amber-400',
          )}
          aria-hidden="true"
        />
        <span className="truncate">{thread.title}</span>
      </button>
      {!thread.isDefault && <ThreadActionsButton thread={thread} handlers={handlers} />}
    </div>
  )
  if (thread.isDefault) return row
  return (
    <ThreadContextMenu thread={thread} handlers={handlers}>
      {row}
    </ThreadContextMenu>
  )
})
