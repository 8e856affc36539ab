// Desktop panels (spec section 9): threads 25 % (15 to 40), chat 75 % (min 60); the keyboard
// steps 10 %, or 100 % with Shift (clamped to the limits).
export const THREADS_PANEL = { default: 25, min: 15, max: 40 }
export const CHAT_PANEL_MIN = 60

/** The thread panel's next size for a key on the separator; null for keys it does not handle. */
export function resizeByKey(threads: number, key: string, shift: boolean): number | null {
  const step = shift ? 100 : 10
  const deltas: Record<string, number> = { ArrowLeft: -step, ArrowRight: step, Home: -100, End: 100 }
  const delta = deltas[key]
  if (delta === undefined) return null
  const max = Math.min(THREADS_PANEL.max, 100 - CHAT_PANEL_MIN)
  return Math.min(Math.max(threads + delta, THREADS_PANEL.min), max)
}
