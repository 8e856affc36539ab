import { describe, expect, it } from 'vitest'
import { dayLabel, historySummary, historyTotals } from './history-summary.ts'

const day = (date: string, saved: number, actual: number, messages: number) => ({
  date,
  saved,
  actual,
  messages,
})

describe('historySummary', () => {
  it('totals the days and names the best one', () => {
    const days = [day('2026-03-01', 0, 0, 0), day('2026-03-02', 1.5, 0.25, 3), day('2026-03-03', 0.5, 0.1, 1)]
    expect(historyTotals(days)).toEqual({ saved: 2, actual: 0.35, messages: 4 })
    expect(historySummary(days)).toBe(
      'Daily CO2 over the last 3 days: 2 g saved and 0.35 g emitted across 4 replies; most saved on Mar 2 (1.5 g).',
    )
  })

  it('says when there is nothing yet', () => {
    expect(historySummary([day('2026-03-01', 0, 0, 0)])).toBe(
      'Daily CO2 over the last 1 day: no replies yet.',
    )
  })

  it('labels UTC days whatever the local time zone', () => {
    expect(dayLabel('2026-01-01')).toBe('Jan 1')
  })
})
