// Whether the desktop thread list is hidden, shared by the panels (desktop-layout.tsx) and the
// header's toggle, its one control: the separator only resizes, within 15 to 40 percent. It
// starts as the browser remembers it (a stored width of 0).
import { useSyncExternalStore } from 'react'
import { readThreadsWidth } from '../lib/panel-layout.ts'

let collapsed: boolean | null = null
const listeners = new Set<() => void>()

function storage() {
  try {
    return localStorage
  } catch {
    return null
  }
}

function current(): boolean {
  collapsed ??= readThreadsWidth(storage()) === 0
  return collapsed
}

export function setThreadsCollapsed(next: boolean) {
  if (next === current()) return
  collapsed = next
  for (const l of listeners) l()
}

export function toggleThreadsPanel() {
  setThreadsCollapsed(!current())
}

export function useThreadsCollapsed(): boolean {
  return useSyncExternalStore((l) => {
    listeners.add(l)
    return () => listeners.delete(l)
  }, current)
}
