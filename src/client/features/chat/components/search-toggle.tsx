// The composer's "Search the web" toggle: replies in this thread may search the web and cite
// what they found. Remembered per thread (lib/web-search.ts).
import Globe from 'lucide-react/icons/globe'
import { cn } from '#client/lib/cn.ts'
import { useWebSearch } from '../lib/web-search.ts'

export function SearchToggle({
  threadKey,
  unavailableReason,
}: {
  threadKey: string
  /** Why this server cannot search (no provider configured); null when it can. */
  unavailableReason: string | null
}) {
  const [stored, setOn] = useWebSearch(threadKey)
  const on = stored && !unavailableReason
  return (
    <button
      type="button"
      aria-pressed={on}
      aria-label="Search the web"
      title={
        unavailableReason ??
        (on ? 'Web search is on for this thread' : 'Search the web for this reply and cite sources')
      }
      disabled={Boolean(unavailableReason)}
      onClick={() => setOn(!on)}
      className={cn(
        'flex h-8 items-center gap-1 rounded-md px-2 text-xs transition-colors focus-visible:outline-2 focus-visible:outline-ring disabled:opacity-50',
        on ? 'bg-primary/10 text-primary' : 'text-muted-foreground hover:bg-accent hover:text-foreground',
      )}
    >
      <Globe className="size-4" aria-hidden="true" />
      <span className="hidden sm:inline">Search</span>
    </button>
  )
}
