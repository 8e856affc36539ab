import { useCallback, useSyncExternalStore } from 'react'

/** Live result of a CSS media query (breakpoints, reduced motion). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query)
      list.addEventListener('change', onChange)
      return () => list.removeEventListener('change', onChange)
    },
    [query],
  )
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches)
}

/** Tailwind's lg: panels from here up, the 'Show Threads' drawer below. */
export const LARGE_QUERY = '(min-width: 1024px)'
/** Spec section 2: the mobile breakpoint (portrait video below it). */
export const MOBILE_QUERY = '(max-width: 767px)'
