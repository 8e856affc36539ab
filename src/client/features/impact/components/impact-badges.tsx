import type { User } from '#contract/user.ts'
import { useFreshCo2Metrics } from '../hooks/use-fresh-co2-metrics.ts'
import { Co2Badge } from './co2-badge.tsx'
import { TreesBadge } from './trees-badge.tsx'

/** The chat header's CO2-saved and trees badges, for a signed-in user (spec section 2). */
export function ImpactBadges({ user }: { user: Pick<User, 'co2Saved' | 'treesPlanted'> }) {
  useFreshCo2Metrics(user)
  return (
    <div className="flex shrink-0 items-center gap-1 sm:gap-1.5">
      <Co2Badge fallbackGrams={user.co2Saved} />
      <TreesBadge count={user.treesPlanted} />
    </div>
  )
}
