import { formatEnergy, formatGrams, formatWater } from '#client/lib/impact-format.ts'
import type { Co2HistoryDay } from '#contract/impact.ts'

/** What the Consumption chart shows: CO2 saved and emitted, energy used, or water used. */
export type HistoryMetric = 'co2' | 'energy' | 'water'

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
    (t, d) => ({
      saved: t.saved + d.saved,
      actual: t.actual + d.actual,
      energyWh: t.energyWh + d.energyWh,
      waterL: t.waterL + d.waterL,
      messages: t.messages + d.messages,
    }),
    { saved: 0, actual: 0, energyWh: 0, waterL: 0, messages: 0 },
  )
}

/** What the chart shows, in one sentence for screen readers (the chart's aria-label). */
export function historySummary(days: readonly Co2HistoryDay[], metric: HistoryMetric = 'co2'): string {
  const span = `the last ${days.length} ${days.length === 1 ? 'day' : 'days'}`
  const t = historyTotals(days)
  const title = { co2: 'Daily CO2', energy: 'Daily energy', water: 'Daily water' }[metric]
  if (t.messages === 0) return `${title} over ${span}: no replies yet.`
  const replies = `${t.messages} ${t.messages === 1 ? 'reply' : 'replies'}`
  if (metric === 'co2') {
    const best = days.reduce((a, b) => (b.saved > a.saved ? b : a))
    return `${title} over ${span}: ${formatGrams(t.saved)} saved and ${formatGrams(t.actual)} emitted across ${replies}; most saved on ${dayLabel(best.date)} (${formatGrams(best.saved)}).`
  }
  const pick =
    metric === 'energy' ? (d: { energyWh: number }) => d.energyWh : (d: { waterL: number }) => d.waterL
  const format = metric === 'energy' ? formatEnergy : formatWater
  const most = days.reduce((a, b) => (pick(b) > pick(a) ? b : a))
  return `${title} over ${span}: ${format(pick(t))} used across ${replies}; most on ${dayLabel(most.date)} (${format(pick(most))}).`
}
