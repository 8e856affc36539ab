import Leaf from 'lucide-react/icons/leaf'
import { TooltipBadge } from '#client/components/tooltip-badge.tsx'
import { formatGrams } from '#client/lib/impact-format.ts'
import { useCo2Range } from '../api/get-co2-range.ts'
import { useCo2Saved } from '../api/get-co2-saved.ts'

/**
 * Grams of CO2 saved (GET /api/metrics/co2), the midpoint of the estimate; the tooltip gives the
 * spec's explanation and the range behind the midpoint (docs/decisions/003).
 */
export function Co2Badge({ fallbackGrams }: { fallbackGrams: number }) {
  const saved = useCo2Saved(true)
  const range = useCo2Range(true)
  const grams = saved.data ?? fallbackGrams
  const text = formatGrams(grams)
  return (
    <TooltipBadge
      data-testid="co2-badge"
      aria-label={`CO2 saved: ${text}`}
      tipClassName="grid gap-1"
      tip={
        <>
          <p>CO2 savings are compared with standard AI models.</p>
          <p>Actual emissions and savings are tracked for each message.</p>
          {range.data && range.data.max > 0 ? (
            <p className="text-muted-foreground">
              Estimated range: {formatGrams(range.data.min)} to {formatGrams(range.data.max)}
            </p>
          ) : null}
        </>
      }
    >
      <Leaf className="size-3.5 max-[419px]:hidden" aria-hidden="true" />
      <span data-testid="co2-badge-value">{text}</span>
      {/* Phones keep the unit and what it measures, in short. */}
      <span>
        CO2<span className="hidden sm:inline"> saved</span>
      </span>
    </TooltipBadge>
  )
}
