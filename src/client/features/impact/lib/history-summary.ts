import type { Co2HistoryDay } from '#contract/impact.ts'
import { formatGrams } from './format.ts'

/** 'Mar 4' for a UTC day 'YYYY-MM-DD' (the history is in UTC days). */
export function dayLabel(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  })
}

export function historyTotals(days: readonly Co2HistoryDay[]) {
  return days.reduce(
    (t, d) => ({ saved: t.saved + d.saved, actual: t.actual + d.actual, messages: t.messages + d.messages }),
    { saved: 0, actual: 0, messages: 0 },
  )
}

/** What the chart shows, in one sentence for screen readers (the chart's aria-label). */
export function historySummary(days: readonly Co2HistoryDay[]): string {
  const span = `the last ${days.length} ${days.length === 1 ? 'day' : 'days'}`
  const t = historyTotals(days)
  if (t.messages === 0) return `Daily CO2 over ${span}: no replies yet.`
  const best = days.reduce((a, b) => (b.saved > a.saved ? b : a))
  const replies = `${t.messages} ${t.messages === 1 ? 'reply' : 'replies'}`
  return `Daily CO2 over ${span}: ${formatGrams(t.saved)} saved and ${formatGrams(t.actual)} emitted across ${replies}; most saved on ${dayLabel(best.date)} (${formatGrams(best.saved)}).`
}
