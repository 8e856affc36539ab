import TreePine from 'lucide-react/icons/tree-pine'
import { useEffect, useRef, useState } from 'react'
import { Tooltip, TooltipContent, TooltipTrigger, useTapTooltip } from '#client/components/ui/tooltip.tsx'
import { cn } from '#client/lib/cn.ts'

/** Trees planted; scales up for 1 s when the count rises (spec section 2, `animate-tree-pop`). */
export function TreesBadge({ count }: { count: number }) {
  const [popping, setPopping] = useState(false)
  const previous = useRef(count)
  useEffect(() => {
    // Only a rise pops: the first render and a refetch of the same count stay still.
    if (count > previous.current) setPopping(true)
    previous.current = count
  }, [count])
  const label = `${count} ${count === 1 ? 'tree' : 'trees'} planted`
  const tap = useTapTooltip()
  return (
    <Tooltip {...tap.root}>
      <TooltipTrigger asChild>
        <button
          type="button"
          onPointerDown={tap.onPointerDown}
          onClick={tap.onClick}
          data-testid="trees-badge"
          data-state={popping ? 'popping' : 'idle'}
          aria-label={label}
          onAnimationEnd={() => setPopping(false)}
          className={cn(
            'inline-flex h-8 shrink-0 items-center gap-1 whitespace-nowrap rounded-full border border-primary/30 bg-primary/10 px-1.5 text-xs min-[420px]:px-2 sm:gap-1.5 sm:px-2.5 font-medium text-emerald-300 tabular-nums hover:bg-primary/20',
            popping && 'animate-tree-pop',
          )}
        >
          <TreePine className="size-3.5 max-[419px]:hidden" aria-hidden="true" />
          <span data-testid="trees-badge-value">{count}</span>
          <span>{count === 1 ? 'tree' : 'trees'}</span>
        </button>
      </TooltipTrigger>
      <TooltipContent>
        <p>One tree is planted with our reforestation partners for every second message you send.</p>
      </TooltipContent>
    </Tooltip>
  )
}
