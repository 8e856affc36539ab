import { describe, expect, it } from 'vitest'
import { rowsToTsv } from './table-tsv.ts'

describe('rowsToTsv', () => {
  it('joins columns with tabs and rows with newlines', () => {
    expect(
      rowsToTsv([
        ['Model', 'CO2 (g)'],
        ['Gemini', '0.12'],
        ['Loris', '0.03'],
      ]),
    ).toBe('Model\tCO2 (g)\nGemini\t0.12\nLoris\t0.03')
  })
  it('keeps empty cells so columns stay aligned', () => {
    expect(rowsToTsv([['a', '', 'c']])).toBe('a\t\tc')
  })
  it('flattens tabs and newlines inside a cell', () => {
    expect(rowsToTsv([['two\nlines', 'tab\there']])).toBe('two lines\ttab here')
  })
  it('gives an empty string for no rows', () => {
    expect(rowsToTsv([])).toBe('')
  })
})
