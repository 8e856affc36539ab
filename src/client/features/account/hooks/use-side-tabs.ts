import { useSyncExternalStore } from 'react'

// Tailwind's md: the tab list stands at the side from here up, and runs across the top below.
const SIDE_QUERY = '(min-width: 768px)'

function subscribe(onChange: () => void) {
  const list = window.matchMedia(SIDE_QUERY)
  list.addEventListener('change', onChange)
  return () => list.removeEventListener('change', onChange)
}

/** Whether the settings tabs are laid out vertically, so arrow keys follow what the eye sees. */
export function useSideTabs(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(SIDE_QUERY).matches)
}
