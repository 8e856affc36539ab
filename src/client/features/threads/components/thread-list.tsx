// The thread list (spec section 2): search, Default pinned, Favorites, age groups, each thread
// with its actions; virtualized so hundreds of threads stay fast.
import { useVirtualizer } from '@tanstack/react-virtual'
import Folder from 'lucide-react/icons/folder'
import Plus from 'lucide-react/icons/plus'
import Search from 'lucide-react/icons/search'
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import { Input } from '#client/components/ui/input.tsx'
import { Spinner } from '#client/components/ui/spinner.tsx'
import type { Thread } from '#contract/threads.ts'
import { useFavoriteThread } from '../api/favorite-thread.ts'
import { groupThreads, type ProjectFolder } from '../lib/group-threads.ts'
import { DeleteThreadDialog } from './delete-thread-dialog.tsx'
import { RenameThreadDialog } from './rename-thread-dialog.tsx'
import { ShareThreadDialog } from './share-thread-dialog.tsx'
import type { ThreadActionHandlers } from './thread-actions.tsx'
import { ThreadRow } from './thread-row.tsx'

type Row =
  | { kind: 'header'; key: string; label: string; project?: ProjectFolder }
  | { kind: 'thread'; key: string; thread: Thread }

function Empty({ title, hint }: { title: string; hint: string }) {
  return (
    <div className="px-4 py-10 text-center">
      <p className="text-sm font-medium">{title}</p>
      <p className="mt-1 text-sm text-muted-foreground">{hint}</p>
    </div>
  )
}

export interface ThreadListProps {
  threads: Thread[] | undefined
  isLoading: boolean
  error: Error | null
  onRetry: () => void
  selectedId: string | null
  onSelect: (thread: Thread) => void
  onNewThread: () => void
  onDeleted: (id: string) => void
  /** Shown below the title matches while searching (matches inside messages, composed by the chat). */
  renderSearchExtra?: (search: string) => ReactNode
  /** Loads the next page of older threads; called as the list nears its end. */
  onLoadMore?: () => void
  hasMore?: boolean
  /** The last next page failed: no more are asked for until the person retries. */
  loadMoreFailed?: boolean
  /** The person has no conversation yet (only an empty Default): the empty state shows under it. */
  noHistory?: boolean
  /** Projects, shown as folders above the age groups, each header with `projectActions`. */
  projects?: ProjectFolder[]
  projectActions?: (project: ProjectFolder) => ReactNode
  /** Buttons under New thread (Temporary chat, New project), composed by the chat. */
  extraButtons?: ReactNode
  /** Moves a thread into or out of a project (its actions offer it when given). */
  onMove?: (thread: Thread) => void
}

/** How close to the last row the next page is asked for. */
const LOAD_MORE_ROWS = 10

export function ThreadList(props: ThreadListProps) {
  const { threads, selectedId, onSelect } = props
  const [search, setSearch] = useState('')
  const [renaming, setRenaming] = useState<Thread | null>(null)
  const [deleting, setDeleting] = useState<Thread | null>(null)
  const [sharing, setSharing] = useState<Thread | null>(null)
  const favorite = useFavoriteThread()
  const handlers = useMemo<ThreadActionHandlers>(
    () => ({
      onFavorite: (t) => favorite.mutate({ id: t.id, isFavorite: !t.isFavorite }),
      onRename: setRenaming,
      onDelete: setDeleting,
      onShare: setSharing,
      onMove: props.onMove,
    }),
    [favorite.mutate, props.onMove],
  )
  const rows = useMemo<Row[]>(() => {
    const sections = groupThreads(threads ?? [], new Date(), search, props.projects)
    return sections.flatMap((s) => [
      ...(s.label
        ? [{ kind: 'header' as const, key: `h-${s.key}`, label: s.label, project: s.project }]
        : []),
      ...s.threads.map((thread) => ({ kind: 'thread' as const, key: thread.id, thread })),
    ])
  }, [threads, search, props.projects])

  const scrollRef = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows[i]?.kind === 'header' ? 32 : 38),
    getItemKey: (i) => rows[i]?.key ?? i,
    overscan: 8,
  })

  // The next page loads before the reader reaches the end of the rows they have.
  const lastShown = virtualizer.getVirtualItems().at(-1)?.index ?? -1
  const { hasMore, onLoadMore } = props
  useEffect(() => {
    if (hasMore && lastShown >= rows.length - LOAD_MORE_ROWS) onLoadMore?.()
  }, [hasMore, onLoadMore, lastShown, rows.length])

  let body: React.ReactNode
  if (props.isLoading) body = <Spinner className="mx-auto my-8 block size-5" label="Loading threads" />
  // A failed refresh keeps the list it had: only a list never loaded gives way to the error.
  else if (props.error && !threads)
    body = (
      <div className="px-4 py-8 text-center text-sm">
        <p role="alert">Failed to fetch threads</p>
        <Button variant="link" size="sm" onClick={props.onRetry}>
          Try again
        </Button>
      </div>
    )
  else if (!threads?.length)
    body = <Empty title="No conversation history yet" hint="Start a new conversation to see it here" />
  else if (!rows.length) body = <Empty title="No threads found" hint="Try a different search term" />
  else
    body = (
      <ul className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((v) => {
          const row = rows[v.index]
          if (!row) return null
          return (
            <li
              key={v.key}
              className="absolute inset-x-0 top-0 px-2"
              style={{ height: v.size, transform: `translateY(${v.start}px)` }}
            >
              {row.kind === 'header' && row.project ? (
                <div className="flex items-center gap-1 px-2 pb-1 pt-2" data-testid="project-folder">
                  <Folder className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                  <h3 className="min-w-0 flex-1 truncate text-sm font-medium">{row.label}</h3>
                  {props.projectActions?.(row.project)}
                </div>
              ) : row.kind === 'header' ? (
                <h3 className="px-2 pb-1 pt-3 text-xs font-medium uppercase tracking-wide text-muted-foreground">
                  {row.label}
                </h3>
              ) : (
                <ThreadRow
                  thread={row.thread}
                  selected={row.thread.id === selectedId}
                  onSelect={onSelect}
                  handlers={handlers}
                />
              )}
            </li>
          )
        })}
      </ul>
    )
  const emptyUnderDefault = props.noHistory && !search.trim() && rows.length > 0

  return (
    <nav aria-label="Threads" className="flex h-full min-h-0 flex-col">
      <div className="flex flex-col gap-2 p-3">
        <Button variant="outline" className="justify-start" onClick={props.onNewThread}>
          <Plus aria-hidden="true" /> New thread
        </Button>
        {props.extraButtons}
        <div className="relative">
          <Search
            className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            type="search"
            aria-label="Search threads"
            placeholder="Search threads"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="h-9 pl-8"
          />
        </div>
      </div>
      {/* A failed next page says so at the list's end instead (the query's error is the same). */}
      {props.error && threads && !props.loadMoreFailed && (
        <p role="alert" className="px-4 pb-1 text-xs text-muted-foreground">
          Couldn't refresh —{' '}
          <Button variant="link" size="sm" className="h-auto p-0 text-xs" onClick={props.onRetry}>
            Retry
          </Button>
        </p>
      )}
      <div ref={scrollRef} className="min-h-0 flex-1 overflow-y-auto pb-3">
        {body}
        {emptyUnderDefault && (
          <Empty title="No conversation history yet" hint="Start a new conversation to see it here" />
        )}
        {props.loadMoreFailed && (
          <div className="px-4 py-2 text-center text-sm">
            <p role="alert">Couldn't load more</p>
            <Button variant="link" size="sm" onClick={() => props.onLoadMore?.()}>
              Retry
            </Button>
          </div>
        )}
        {search.trim() && props.renderSearchExtra?.(search)}
      </div>
      <RenameThreadDialog thread={renaming} onClose={() => setRenaming(null)} />
      <ShareThreadDialog thread={sharing} onClose={() => setSharing(null)} />
      <DeleteThreadDialog thread={deleting} onClose={() => setDeleting(null)} onDeleted={props.onDeleted} />
    </nav>
  )
}
