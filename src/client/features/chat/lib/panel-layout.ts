// The desktop thread panel's width is remembered per browser, within its limits;
// 0 means the list is collapsed.
import { THREADS_PANEL } from './panel-resize.ts'

export const PANEL_LAYOUT_KEY = 'chat-threads-panel'

/** The stored threads width (percent), or the default when nothing valid is stored. */
export function readThreadsWidth(storage: Pick<Storage, 'getItem'> | null): number {
  try {
    const stored = storage?.getItem(PANEL_LAYOUT_KEY)
    // Number(null) and Number('') are 0, which would read as collapsed.
    if (stored == null || stored.trim() === '') return THREADS_PANEL.default
    const raw = Number(stored)
    if (raw === 0) return 0
    if (Number.isFinite(raw) && raw >= THREADS_PANEL.min && raw <= THREADS_PANEL.max) return raw
  } catch {
    // Storage refused: the default.
  }
  return THREADS_PANEL.default
}

export function saveThreadsWidth(storage: Pick<Storage, 'setItem'> | null, width: number) {
  try {
    storage?.setItem(PANEL_LAYOUT_KEY, String(Math.round(width * 10) / 10))
  } catch {
    // Not remembered; the layout still holds for this page.
  }
}
