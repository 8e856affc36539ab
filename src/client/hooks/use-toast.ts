// Toast store (spec section 4 'Toasts'): one toast at a time, a new one replaces the previous,
// a dismissed toast is removed after 1,000,000 ms so its exit animation can finish.
import { useSyncExternalStore } from 'react'
import type { ToastVariant } from '#client/components/ui/toast.tsx'

const TOAST_LIMIT = 1
const TOAST_REMOVE_DELAY = 1_000_000

export interface ToastItem {
  id: string
  title?: string
  description?: string
  variant?: ToastVariant
  duration?: number
  open: boolean
}

let toasts: ToastItem[] = []
const listeners = new Set<() => void>()
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>()
let counter = 0

function emit(next: ToastItem[]) {
  toasts = next
  for (const l of listeners) l()
}

function scheduleRemoval(id: string) {
  if (removeTimers.has(id)) return
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id)
      emit(toasts.filter((t) => t.id !== id))
    }, TOAST_REMOVE_DELAY),
  )
}

export function dismissToast(id?: string) {
  for (const t of toasts) if (!id || t.id === id) scheduleRemoval(t.id)
  emit(toasts.map((t) => (!id || t.id === id ? { ...t, open: false } : t)))
}

export function toast(input: Omit<ToastItem, 'id' | 'open'>) {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER
  const id = String(counter)
  emit([{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT))
  return { id, dismiss: () => dismissToast(id) }
}

function subscribe(l: () => void) {
  listeners.add(l)
  return () => listeners.delete(l)
}

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(subscribe, () => toasts)
}
