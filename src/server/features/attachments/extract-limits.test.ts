// The limits extractDocumentText applies itself (it runs inside the parse worker; these call it
// directly): pages past the limit are left out and said, regexes stay linear on hostile text.
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { PARSE_LIMITS } from '#contract/attachments.ts'
import { MB, manyCellsXlsx, pagesPdf } from '../../../../tests/helpers/bombs.ts'
import { extractDocumentText, tidyWhitespace } from './extract.ts'
import { measureZip, newBudget } from './inflate-budget.ts'
import { hasSvgRoot } from './sniff.ts'

describe('document limits', () => {
  it('reads a PDF up to the page limit and says how many pages it has', async () => {
    const limits = { ...PARSE_LIMITS, pages: 2 }
    const read = await extractDocumentText(pagesPdf(3), 'application/pdf', 60_000, limits)
    expect(read.text).toBe('Page 1\n\nPage 2')
    expect(read.pages).toEqual({ read: 2, total: 3 })
    const whole = await extractDocumentText(pagesPdf(2), 'application/pdf', 60_000, limits)
    expect(whole.pages).toBeUndefined()
  })

  it('counts sheets and cells before xlsx parses anything', () => {
    const counts = measureZip(manyCellsXlsx(1_000), newBudget())
    // The helper fills whole megabytes of rows: at least the cells asked for, ten to a row.
    expect(counts.sheets).toBe(1)
    expect(counts.cells).toBeGreaterThanOrEqual(1_000)
    expect(counts.cells % 10).toBe(0)
    expect(() => measureZip(manyCellsXlsx(1_000), newBudget(), { ...PARSE_LIMITS, cells: 999 })).toThrow(
      expect.objectContaining({ code: 'unprocessable:file_cell_limit' }),
    )
    expect(() => measureZip(manyCellsXlsx(10), { entryBytes: 100, totalBytes: MB, spent: 0 })).toThrow(
      expect.objectContaining({ code: 'unprocessable:file_decompressed_size' }),
    )
  })
})

describe('old .xls files', () => {
  it('are read, and refused past the sheet or cell limit', async () => {
    const xls = await readFile('tests/fixtures/sheet.xls')
    const read = await extractDocumentText(xls, 'application/vnd.ms-excel')
    expect(read.text).toContain('February,95')
    await expect(
      extractDocumentText(xls, 'application/vnd.ms-excel', 60_000, { ...PARSE_LIMITS, sheets: 0 }),
    ).rejects.toMatchObject({ code: 'unprocessable:file_sheet_limit' })
    await expect(
      extractDocumentText(xls, 'application/vnd.ms-excel', 60_000, { ...PARSE_LIMITS, cells: 1 }),
    ).rejects.toMatchObject({ code: 'unprocessable:file_cell_limit' })
  })
})

describe('linear-time text handling', () => {
  it('tidies trailing spaces and blank lines as before', () => {
    expect(tidyWhitespace('a  \t\nb\n\n\n\nc \n')).toBe('a\nb\n\nc')
    // A long run of spaces with no newline (quadratic for /[ \t]+\n/g) is quick.
    const started = performance.now()
    expect(tidyWhitespace(`a${' '.repeat(1_000_000)}b`)).toHaveLength(1_000_002)
    expect(performance.now() - started).toBeLessThan(1_000)
  })

  it('recognises an SVG root after a prolog, and stays fast on `<!---->` repeated', () => {
    expect(hasSvgRoot('\uFEFF<?xml version="1.0"?>\n<!-- c -->\n<!DOCTYPE svg>\n<svg xmlns="x">')).toBe(true)
    expect(hasSvgRoot('<SVG>')).toBe(true)
    expect(hasSvgRoot('<!-- <svg> -->hello')).toBe(false)
    expect(hasSvgRoot('<svgx>')).toBe(false)
    const started = performance.now()
    expect(hasSvgRoot(`${'<!---->'.repeat(100_000)}x`)).toBe(false)
    expect(hasSvgRoot(`${'<!---->'.repeat(100_000)}<svg>`)).toBe(true)
    expect(performance.now() - started).toBeLessThan(1_000)
  })
})
