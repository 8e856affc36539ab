import TreePine from 'lucide-react/icons/tree-pine'
import { useEffect, useRef, useState } from 'react'
import { TooltipBadge } from '#client/components/tooltip-badge.tsx'

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
  return (
    <TooltipBadge
      data-testid="trees-badge"
      data-state={popping ? 'popping' : 'idle'}
      aria-label={label}
      onAnimationEnd={() => setPopping(false)}
      className={popping ? 'animate-tree-pop' : undefined}
      tip={<p>One tree is planted with our reforestation partners for every second message you send.</p>}
    >
      <TreePine className="size-3.5 max-[419px]:hidden" aria-hidden="true" />
      <span data-testid="trees-badge-value">{count}</span>
      <span>{count === 1 ? 'tree' : 'trees'}</span>
    </TooltipBadge>
  )
}
