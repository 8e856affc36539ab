import { type RefObject, useEffect, useState } from 'react'

/**
 * Whether at least `ratio` of the element is in the viewport (IntersectionObserver). Starts as
 * `true`: the page opens at the top, where the hero fills the screen.
 */
export function useIsVisible(ref: RefObject<Element | null>, ratio: number): boolean {
  const [visible, setVisible] = useState(true)
  useEffect(() => {
    const el = ref.current
    if (!el || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries[entries.length - 1]
        if (entry) setVisible(entry.isIntersecting && entry.intersectionRatio >= ratio)
      },
      { threshold: ratio },
    )
    observer.observe(el)
    return () => observer.disconnect()
  }, [ref, ratio])
  return visible
}
