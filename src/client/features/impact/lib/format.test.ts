import { describe, expect, it } from 'vitest'
import { formatGrams, formatRange, formatSmall } from './format.ts'

describe('formatGrams', () => {
  it.each([
    [0, '0 g'],
    [-1, '0 g'],
    [0.004, '<0.01 g'],
    [0.42, '0.42 g'],
    [1.5, '1.5 g'],
    [12.345, '12.3 g'],
    [999.94, '999.9 g'],
    [1250, '1.25 kg'],
  ])('%d → %s', (g, text) => {
    expect(formatGrams(g)).toBe(text)
  })
})

describe('formatSmall and formatRange', () => {
  it('keeps three significant digits', () => {
    expect(formatSmall(0.040491)).toBe('0.0405')
    expect(formatSmall(1.2345)).toBe('1.23')
    expect(formatSmall(1234.5)).toBe('1,235')
    expect(formatRange({ min: 0.0224, max: 0.0286 }, 'g')).toBe('0.0224 to 0.0286 g')
    expect(formatRange({ min: 2, max: 2 }, 'Wh')).toBe('2 Wh')
  })
})
