// Copying a reply's table (spec section 2): tab-separated columns, newline-separated rows.

/** Cells are flattened to one line so a tab or newline inside one cannot break the grid. */
export function rowsToTsv(rows: string[][]): string {
  return rows.map((row) => row.map((cell) => cell.replace(/[\t\r\n]+/g, ' ').trim()).join('\t')).join('\n')
}

/** The text of every cell of a rendered table, row by row (header row included). */
export function tableRows(table: HTMLTableElement): string[][] {
  return Array.from(table.rows, (row) => Array.from(row.cells, (cell) => cell.textContent ?? ''))
}
