import * as TooltipPrimitive from '@radix-ui/react-tooltip'
import type * as React from 'react'
import { useRef, useState } from 'react'

const TAP_GRACE_MS = 500

import { cn } from '#client/lib/cn.ts'

// Spec section 4: tooltips open after 700 ms, with a 300 ms skip delay after closing.
export function TooltipProvider(props: React.ComponentProps<typeof TooltipPrimitive.Provider>) {
  return <TooltipPrimitive.Provider delayDuration={700} skipDelayDuration={300} {...props} />
}
export const Tooltip = TooltipPrimitive.Root
export const TooltipTrigger = TooltipPrimitive.Trigger

export function TooltipContent({
  className,
  sideOffset = 4,
  ...props
}: React.ComponentProps<typeof TooltipPrimitive.Content>) {
  return (
    <TooltipPrimitive.Portal>
      <TooltipPrimitive.Content
        data-slot="tooltip-content"
        sideOffset={sideOffset}
        className={cn(
          'z-50 max-w-xs rounded-md border bg-popover px-3 py-1.5 text-sm text-popover-foreground shadow-md',
          className,
        )}
        {...props}
      />
    </TooltipPrimitive.Portal>
  )
}

/**
 * A tooltip that a tap opens too: touch screens have no hover, and a badge whose meaning sits in
 * its tooltip must still explain itself. Spread `root` on Tooltip, `onClick` on the
 * trigger's child.
 */
export function useTapTooltip() {
  const [open, setOpen] = useState(false)
  const changedAt = useRef(0)
  const change = (next: boolean) => {
    changedAt.current = Date.now()
    setOpen(next)
  }
  return {
    root: {
      open,
      onOpenChange: (next: boolean) => {
        // A finger lifting off counts as leaving the trigger: keep what the tap just opened.
        if (!next && Date.now() - changedAt.current < TAP_GRACE_MS) return
        change(next)
      },
    },
    onClick: (e: React.MouseEvent) => {
      // Radix closes a tooltip on a trigger click; a tap opens it (the focus a tap gives may just
      // have), and a later tap closes it.
      e.preventDefault()
      change(!open || Date.now() - changedAt.current < TAP_GRACE_MS)
    },
  }
}
