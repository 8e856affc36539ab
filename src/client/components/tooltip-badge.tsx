// A round badge of the chat header (CO2 saved, trees planted) whose tooltip opens on hover, focus
// or a tap (phones have no hover).
import type { ComponentProps, ReactNode } from 'react'
import { Tooltip, TooltipContent, TooltipTrigger, useTapTooltip } from '#client/components/ui/tooltip.tsx'
import { cn } from '#client/lib/cn.ts'

export interface TooltipBadgeProps extends ComponentProps<'button'> {
  /** The tooltip's content. */
  tip: ReactNode
  tipClassName?: string
}

export function TooltipBadge({ tip, tipClassName, className, children, ...button }: TooltipBadgeProps) {
  const tap = useTapTooltip()
  return (
    <Tooltip {...tap.root}>
      <TooltipTrigger asChild>
        <button
          type="button"
          onPointerDown={tap.onPointerDown}
          onClick={tap.onClick}
          className={cn(
            'inline-flex h-8 shrink-0 items-center gap-1 whitespace-nowrap rounded-full border border-primary/30 bg-primary/10 px-1.5 text-xs min-[420px]:px-2 sm:gap-1.5 sm:px-2.5 font-medium text-emerald-300 tabular-nums hover:bg-primary/20',
            className,
          )}
          {...button}
        >
          {children}
        </button>
      </TooltipTrigger>
      <TooltipContent className={tipClassName}>{tip}</TooltipContent>
    </Tooltip>
  )
}
