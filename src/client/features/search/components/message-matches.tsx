// Matches inside messages, shown below the thread-title filter while searching: a
// snippet with the words highlighted, the thread's title and the date.
import FileText from 'lucide-react/icons/file-text'
import { Button } from '#client/components/ui/button.tsx'
import { Spinner } from '#client/components/ui/spinner.tsx'
import type { SearchResult } from '#contract/search.ts'
import { MIN_SEARCH_CHARS, useMessageSearch } from '../api/search-messages.ts'
import { useDebounced } from '../lib/use-debounced.ts'
import { Snippet } from './snippet.tsx'

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })

export function MessageMatches({ search, onOpen }: { search: string; onOpen: (r: SearchResult) => void }) {
  const q = useDebounced(search.trim(), 200)
  const found = useMessageSearch(q)
  if (q.length < MIN_SEARCH_CHARS) return null
  const results = found.data?.pages.flatMap((p) => p.results) ?? []
  return (
    <section aria-label="Matches in messages" className="px-2 pt-2">
      <h3 className="px-2 pb-1 pt-3 text-xs font-medium uppercase tracking-wide text-muted-foreground">
        In messages
      </h3>
      {found.isLoading ? (
        <Spinner className="mx-auto my-4 block size-4" label="Searching messages" />
      ) : found.isError ? (
        <p role="alert" className="px-2 py-2 text-sm text-muted-foreground">
          Search failed.{' '}
          <Button variant="link" size="sm" className="h-auto p-0" onClick={() => void found.refetch()}>
            Try again
          </Button>
        </p>
      ) : results.length === 0 ? (
        <p className="px-2 py-2 text-sm text-muted-foreground">No messages match</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {results.map((r) => (
            <li key={r.messageId}>
              <button
                type="button"
                data-testid="message-match"
                onClick={() => onOpen(r)}
                className="w-full rounded-md px-2 py-1.5 text-left hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
              >
                <p className="line-clamp-3 text-sm">
                  {r.source === 'attachment' && (
                    <FileText
                      className="mr-1 inline size-3.5 text-muted-foreground"
                      aria-label="In a file:"
                    />
                  )}
                  <Snippet parts={r.snippet} />
                </p>
                <p className="mt-0.5 flex justify-between gap-2 text-xs text-muted-foreground">
                  <span className="truncate">{r.threadTitle}</span>
                  <time dateTime={r.createdAt} className="shrink-0">
                    {dateFormat.format(new Date(r.createdAt))}
                  </time>
                </p>
              </button>
            </li>
          ))}
        </ul>
      )}
      {found.hasNextPage && (
        <Button
          variant="ghost"
          size="sm"
          className="mt-1 w-full"
          disabled={found.isFetchingNextPage}
          onClick={() => void found.fetchNextPage()}
        >
          {found.isFetchingNextPage ? 'Loading…' : 'More matches'}
        </Button>
      )}
    </section>
  )
}
