import { describe, expect, it } from 'vitest'
import { dayLabel, historySummary, historyTotals } from './history-summary.ts'
import { treesAbsorb, treesPlanted } from './trees.ts'

const day = (date: string, saved: number, actual: number, messages: number, energyWh = 0, waterL = 0) => ({
  date,
  saved,
  actual,
  energyWh,
  waterL,
  messages,
})

describe('historySummary', () => {
  it('totals the days and names the best one', () => {
    const days = [day('2026-03-01', 0, 0, 0), day('2026-03-02', 1.5, 0.25, 3), day('2026-03-03', 0.5, 0.1, 1)]
    expect(historyTotals(days)).toEqual({ saved: 2, actual: 0.35, energyWh: 0, waterL: 0, messages: 4 })
    expect(historySummary(days)).toBe(
      'Daily CO2 over the last 3 days: 2 g saved and 0.35 g emitted across 4 replies; most saved on Mar 2 (1.5 g).',
    )
  })

  it('sums energy and water, and words them for the chart that shows them', () => {
    const days = [day('2026-03-01', 1, 0.2, 2, 0.5, 0.002), day('2026-03-02', 1, 0.2, 1, 1.25, 0.004)]
    expect(historyTotals(days)).toMatchObject({ energyWh: 1.75, waterL: 0.006 })
    expect(historySummary(days, 'energy')).toBe(
      'Daily energy over the last 2 days: 1.75 Wh used across 3 replies; most on Mar 2 (1.25 Wh).',
    )
    expect(historySummary(days, 'water')).toBe(
      'Daily water over the last 2 days: 6 mL used across 3 replies; most on Mar 2 (4 mL).',
    )
  })

  it('says when there is nothing yet', () => {
    expect(historySummary([day('2026-03-01', 0, 0, 0)])).toBe(
      'Daily CO2 over the last 1 day: no replies yet.',
    )
    expect(historySummary([day('2026-03-01', 0, 0, 0)], 'water')).toBe(
      'Daily water over the last 1 day: no replies yet.',
    )
  })

  it('labels UTC days whatever the local time zone', () => {
    expect(dayLabel('2026-01-01')).toBe('Jan 1')
  })
})

describe('trees', () => {
  it('says what the planted trees absorb, from the EPA figure', () => {
    expect(treesPlanted(1)).toBe('1 tree planted')
    expect(treesPlanted(1200)).toBe('1,200 trees planted')
    expect(treesAbsorb(1)).toBe('It absorbs about 60 kg of CO2 over its first 10 years')
    expect(treesAbsorb(3)).toBe('Together they absorb about 180 kg of CO2 over their first 10 years')
  })
})
