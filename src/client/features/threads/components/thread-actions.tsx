// The actions of one thread (spec section 2): favorite, rename, share, export, delete. The same
// items serve the context menu (right-click, 700 ms long press) and the visible '…' menu.

import MoreHorizontal from 'lucide-react/icons/ellipsis'
import FileJson from 'lucide-react/icons/file-braces'
import FileDown from 'lucide-react/icons/file-down'
import FolderInput from 'lucide-react/icons/folder-input'
import Pencil from 'lucide-react/icons/pencil'
import Share2 from 'lucide-react/icons/share-2'
import Star from 'lucide-react/icons/star'
import StarOff from 'lucide-react/icons/star-off'
import Trash2 from 'lucide-react/icons/trash'
import type { ReactNode } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import {
  ContextMenu,
  ContextMenuContent,
  ContextMenuItem,
  ContextMenuSeparator,
  ContextMenuTrigger,
} from '#client/components/ui/context-menu.tsx'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '#client/components/ui/dropdown-menu.tsx'
import type { Thread } from '#contract/threads.ts'

export interface ThreadActionHandlers {
  onFavorite: (thread: Thread) => void
  onRename: (thread: Thread) => void
  onDelete: (thread: Thread) => void
  onShare: (thread: Thread) => void
  /** Into or out of a project (when the list shows projects). */
  onMove?: (thread: Thread) => void
}

/** Downloads the thread as a file (GET /api/threads/:id/export answers as an attachment). */
function download(thread: Thread, format: 'markdown' | 'json') {
  const a = document.createElement('a')
  a.href = `/api/threads/${thread.id}/export?format=${format}`
  a.download = ''
  document.body.append(a)
  a.click()
  a.remove()
}

function useItems(thread: Thread, h: ThreadActionHandlers) {
  return [
    {
      key: 'favorite',
      label: thread.isFavorite ? 'Remove from favorites' : 'Add to favorites',
      icon: thread.isFavorite ? StarOff : Star,
      run: () => h.onFavorite(thread),
    },
    { key: 'rename', label: 'Rename', icon: Pencil, run: () => h.onRename(thread) },
    { key: 'share', label: 'Share', icon: Share2, run: () => h.onShare(thread) },
    ...(h.onMove && !thread.isDefault
      ? [{ key: 'move', label: 'Move to project', icon: FolderInput, run: () => h.onMove?.(thread) }]
      : []),
    {
      key: 'export-md',
      label: 'Export as Markdown',
      icon: FileDown,
      run: () => download(thread, 'markdown'),
    },
    { key: 'export-json', label: 'Export as JSON', icon: FileJson, run: () => download(thread, 'json') },
    { key: 'delete', label: 'Delete', icon: Trash2, run: () => h.onDelete(thread), destructive: true },
  ]
}

export function ThreadContextMenu({
  thread,
  handlers,
  children,
}: {
  thread: Thread
  handlers: ThreadActionHandlers
  children: ReactNode
}) {
  const items = useItems(thread, handlers)
  return (
    <ContextMenu>
      <ContextMenuTrigger asChild>{children}</ContextMenuTrigger>
      <ContextMenuContent aria-label={`Actions for ${thread.title}`}>
        {items.map((item) => (
          <span key={item.key} className="contents">
            {item.destructive && <ContextMenuSeparator />}
            <ContextMenuItem onSelect={item.run} variant={item.destructive ? 'destructive' : undefined}>
              <item.icon aria-hidden="true" /> {item.label}
            </ContextMenuItem>
          </span>
        ))}
      </ContextMenuContent>
    </ContextMenu>
  )
}

export function ThreadActionsButton({
  thread,
  handlers,
}: {
  thread: Thread
  handlers: ThreadActionHandlers
}) {
  const items = useItems(thread, handlers)
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label={`More actions for ${thread.title}`}
          className="size-7 shrink-0 opacity-60 hover:opacity-100 focus-visible:opacity-100 data-[state=open]:opacity-100"
        >
          <MoreHorizontal aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        {items.map((item) => (
          <span key={item.key} className="contents">
            {item.destructive && <DropdownMenuSeparator />}
            <DropdownMenuItem onSelect={item.run} className={item.destructive ? 'text-red-400' : undefined}>
              <item.icon aria-hidden="true" /> {item.label}
            </DropdownMenuItem>
          </span>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
