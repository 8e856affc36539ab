import { useEffect } from 'react'

/**
 * Buttons that send the browser to Stripe stay busy until the page unloads; Back may restore
 * the page from the back/forward cache in that state, so it is made usable again.
 */
export function useResetOnPageRestore(reset: () => void) {
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) reset()
    }
    window.addEventListener('pageshow', onShow)
    return () => window.removeEventListener('pageshow', onShow)
  }, [reset])
}
