// Whether the desktop thread list is collapsed, shared by the panel (desktop-layout.tsx) and
// the header's toggle. The panel registers how to collapse and expand itself.
import { useSyncExternalStore } from 'react'

let collapsed = false
let handle: { collapse: () => void; expand: () => void } | null = null
const listeners = new Set<() => void>()

export function setThreadsCollapsed(next: boolean) {
  if (next === collapsed) return
  collapsed = next
  for (const l of listeners) l()
}

export function registerThreadsPanel(h: typeof handle) {
  handle = h
}

export function toggleThreadsPanel() {
  if (collapsed) handle?.expand()
  else handle?.collapse()
}

export function useThreadsCollapsed(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => collapsed,
  )
}
