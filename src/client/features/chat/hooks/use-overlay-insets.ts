// How far what floats over the conversation area reaches into it (decision 053): the bar above
// (e-mail reminder, title) from its top, the composer from its bottom. The conversation keeps
// its first and last exchange clear of them. Measured before paint, and again as they change.
import { type RefObject, useLayoutEffect, useState } from 'react'

export interface Insets {
  top: number
  bottom: number
}

export function useOverlayInsets(
  top: RefObject<HTMLElement | null>,
  area: RefObject<HTMLElement | null>,
  bottom: RefObject<HTMLElement | null>,
): Insets {
  const [insets, setInsets] = useState<Insets>({ top: 0, bottom: 0 })
  useLayoutEffect(() => {
    const measure = () => {
      const areaBox = area.current?.getBoundingClientRect()
      const bottomBox = bottom.current?.getBoundingClientRect()
      const next = {
        top: Math.round(top.current?.offsetHeight ?? 0),
        bottom: areaBox && bottomBox ? Math.max(0, Math.round(areaBox.bottom - bottomBox.top)) : 0,
      }
      setInsets((prev) => (prev.top === next.top && prev.bottom === next.bottom ? prev : next))
    }
    measure()
    if (typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(measure)
    for (const ref of [top, area, bottom]) if (ref.current) observer.observe(ref.current)
    return () => observer.disconnect()
  }, [top, area, bottom])
  return insets
}
