import { describe, expect, it } from 'vitest'
import {
  formatEnergy,
  formatGrams,
  formatRange,
  formatRangeWith,
  formatSmall,
  formatWater,
} from './impact-format.ts'

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

describe('formatEnergy, formatWater and formatRangeWith', () => {
  it('picks the unit a person reads', () => {
    expect(formatEnergy(0.040491)).toBe('0.0405 Wh')
    expect(formatEnergy(1250)).toBe('1.25 kWh')
    expect(formatEnergy(0)).toBe('0 Wh')
    expect(formatWater(0.00123)).toBe('1.23 mL')
    expect(formatWater(2.5)).toBe('2.5 L')
    expect(formatWater(-1)).toBe('0 mL')
  })

  it('says a shared unit once, and both when the range crosses one', () => {
    expect(formatRangeWith({ min: 0.00085, max: 0.0017 }, formatWater)).toBe('0.85 to 1.7 mL')
    expect(formatRangeWith({ min: 0.5, max: 1.5 }, formatWater)).toBe('500 mL to 1.5 L')
    expect(formatRangeWith({ min: 2, max: 2 }, formatEnergy)).toBe('2 Wh')
  })
})
