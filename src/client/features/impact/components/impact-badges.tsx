import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import type { User } from '#contract/user.ts'
import { invalidateCo2Metrics } from '../api/get-co2-saved.ts'
import { Co2Badge } from './co2-badge.tsx'
import { TreesBadge } from './trees-badge.tsx'

/** The chat header's CO2-saved and trees badges, for a signed-in user (spec section 2). */
export function ImpactBadges({ user }: { user: Pick<User, 'co2Saved' | 'treesPlanted'> }) {
  const queryClient = useQueryClient()
  const totals = `${user.co2Saved}:${user.treesPlanted}`
  const seen = useRef(totals)
  // A changed user record (refetch on focus, the plant-tree answer) means newer totals: refresh
  // the CO2 metrics with it, in case nobody invalidated them when the reply completed.
  useEffect(() => {
    if (seen.current === totals) return
    seen.current = totals
    void invalidateCo2Metrics(queryClient)
  }, [queryClient, totals])
  return (
    <div className="flex shrink-0 items-center gap-1 sm:gap-1.5">
      <Co2Badge fallbackGrams={user.co2Saved} />
      <TreesBadge count={user.treesPlanted} />
    </div>
  )
}
