/** RFC 4180 CSV with a header; cells that could start a spreadsheet formula are neutralised. */
export function toCsv(header: string[], rows: Array<Array<string | number | null>>): string {
  const lines = [header, ...rows.map((r) => r.map((v) => (v === null ? '' : String(v))))]
  return `${lines.map((cells) => cells.map(cell).join(',')).join('\r\n')}\r\n`
}

function cell(value: string): string {
  // An address like "=cmd|..."@x.io is valid e-mail; a leading quote stops Excel running it.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}
