import * as TooltipPrimitive from '@radix-ui/react-tooltip'
import type * as React from 'react'
import { createContext, type RefObject, useContext, useEffect, useRef, useState } from 'react'
import { cn } from '#client/lib/cn.ts'

/** After a tap, how long the close requests a lifting finger sets off are ignored. */
const TAP_GRACE_MS = 500
/** How long a mouse pointer may spend between the trigger and the tooltip body on its way across. */
const CROSSING_MS = 150

// Spec section 4: tooltips open after 700 ms, with a 300 ms skip delay after closing.
export function TooltipProvider(props: React.ComponentProps<typeof TooltipPrimitive.Provider>) {
  return <TooltipPrimitive.Provider delayDuration={700} skipDelayDuration={300} {...props} />
}

interface Parts {
  trigger: HTMLElement | null
  content: HTMLElement | null
}
const PartsContext = createContext<RefObject<Parts> | null>(null)

/**
 * Radix's Tooltip that also closes whenever a mouse pointer has left both the trigger and the
 * tooltip body, whatever the path. Radix alone closes a hoverable tooltip only on a pointer
 * move after the pointer has left, outside the area between trigger and body: a pointer that
 * leaves the body and rests left it open.
 */
export function Tooltip({
  open: openProp,
  defaultOpen,
  onOpenChange,
  ...props
}: React.ComponentProps<typeof TooltipPrimitive.Root>) {
  const [ownOpen, setOwnOpen] = useState(defaultOpen ?? false)
  const open = openProp ?? ownOpen
  const parts = useRef<Parts>({ trigger: null, content: null })
  const setOpen = (next: boolean) => {
    if (openProp === undefined) setOwnOpen(next)
    onOpenChange?.(next)
  }
  const close = useRef(() => setOpen(false))
  close.current = () => setOpen(false)
  useEffect(() => {
    if (!open) return
    let timer = 0
    const within = (node: EventTarget | null) =>
      node instanceof Node && [parts.current.trigger, parts.current.content].some((el) => el?.contains(node))
    const check = () => {
      const { trigger, content } = parts.current
      if (trigger?.matches(':hover') || content?.matches(':hover')) return
      close.current()
    }
    const onPointerOut = (e: PointerEvent) => {
      if (e.pointerType !== 'mouse' || !within(e.target) || within(e.relatedTarget)) return
      window.clearTimeout(timer)
      timer = window.setTimeout(check, CROSSING_MS)
    }
    document.addEventListener('pointerout', onPointerOut, true)
    return () => {
      document.removeEventListener('pointerout', onPointerOut, true)
      window.clearTimeout(timer)
    }
  }, [open])
  return (
    <PartsContext.Provider value={parts}>
      <TooltipPrimitive.Root open={open} onOpenChange={setOpen} {...props} />
    </PartsContext.Provider>
  )
}

/** A ref callback that also tells the enclosing Tooltip which element plays `part`. */
function usePartRef<T extends HTMLElement>(part: keyof Parts, ref: React.Ref<T> | undefined) {
  const parts = useContext(PartsContext)
  return (el: T | null) => {
    if (parts) parts.current[part] = el
    if (typeof ref === 'function') ref(el)
    else if (ref) ref.current = el
  }
}

export function TooltipTrigger({ ref, ...props }: React.ComponentProps<typeof TooltipPrimitive.Trigger>) {
  return <TooltipPrimitive.Trigger ref={usePartRef('trigger', ref)} {...props} />
}

export function TooltipContent({
  className,
  sideOffset = 4,
  ref,
  ...props
}: React.ComponentProps<typeof TooltipPrimitive.Content>) {
  const partRef = usePartRef('content', ref)
  return (
    <TooltipPrimitive.Portal>
      <TooltipPrimitive.Content
        ref={partRef}
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
 * its tooltip must still explain itself. Spread `root` on Tooltip, `onPointerDown` and `onClick` on
 * the trigger's child. A mouse clicks it open and shut, and it closes when the mouse leaves, as
 * every tooltip does.
 */
export function useTapTooltip() {
  const [open, setOpen] = useState(false)
  const changedAt = useRef(0)
  const tappedAt = useRef(Number.NEGATIVE_INFINITY)
  const pointer = useRef<{ type: string; openBefore: boolean } | null>(null)
  const change = (next: boolean) => {
    changedAt.current = Date.now()
    setOpen(next)
  }
  return {
    root: {
      open,
      onOpenChange: (next: boolean) => {
        // A finger lifting off counts as leaving the trigger: keep what the tap just opened.
        if (!next && Date.now() - tappedAt.current < TAP_GRACE_MS) return
        change(next)
      },
    },
    onPointerDown: (e: React.PointerEvent) => {
      // Read before Radix closes an open tooltip on this press.
      pointer.current = { type: e.pointerType, openBefore: open }
      if (e.pointerType !== 'mouse') tappedAt.current = Date.now()
    },
    onClick: (e: React.MouseEvent) => {
      // Radix closes a tooltip on a trigger click: this decides instead.
      e.preventDefault()
      const pressed = pointer.current
      pointer.current = null
      if (pressed?.type === 'mouse') {
        change(!pressed.openBefore)
        return
      }
      // A tap (or Enter) opens it, even when the focus it gives has just opened it; a later one
      // closes it.
      change(!open || Date.now() - changedAt.current < TAP_GRACE_MS)
    },
  }
}
