import Leaf from 'lucide-react/icons/leaf'
import { Tooltip, TooltipContent, TooltipTrigger, useTapTooltip } from '#client/components/ui/tooltip.tsx'
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
  const tap = useTapTooltip()
  return (
    <Tooltip {...tap.root}>
      <TooltipTrigger asChild>
        <button
          type="button"
          onPointerDown={tap.onPointerDown}
          onClick={tap.onClick}
          data-testid="co2-badge"
          aria-label={`CO2 saved: ${text}`}
          className="inline-flex h-8 shrink-0 items-center gap-1 whitespace-nowrap rounded-full border border-primary/30 bg-primary/10 px-1.5 text-xs min-[420px]:px-2 sm:gap-1.5 sm:px-2.5 font-medium text-emerald-300 tabular-nums hover:bg-primary/20"
        >
          <Leaf className="size-3.5 max-[419px]:hidden" aria-hidden="true" />
          <span data-testid="co2-badge-value">{text}</span>
          {/* Phones keep the unit and what it measures, in short. */}
          <span>
            CO2<span className="hidden sm:inline"> saved</span>
          </span>
        </button>
      </TooltipTrigger>
      <TooltipContent className="grid gap-1">
        <p>CO2 savings are compared with standard AI models.</p>
        <p>Actual emissions and savings are tracked for each message.</p>
        {range.data && range.data.max > 0 ? (
          <p className="text-muted-foreground">
            Estimated range: {formatGrams(range.data.min)} to {formatGrams(range.data.max)}
          </p>
        ) : null}
      </TooltipContent>
    </Tooltip>
  )
}
