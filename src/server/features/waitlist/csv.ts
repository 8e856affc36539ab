/** RFC 4180 CSV with a header; cells that could start a spreadsheet formula are neutralised. */
export function toCsv(rows: { email: string; createdAt: Date }[]): string {
  const lines = [['email', 'joined_at'], ...rows.map((r) => [r.email, r.createdAt.toISOString()])]
  return `${lines.map((cells) => cells.map(cell).join(',')).join('\r\n')}\r\n`
}

function cell(value: string): string {
  // An address like "=cmd|..."@x.io is valid e-mail; a leading quote stops Excel running it.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe
}
