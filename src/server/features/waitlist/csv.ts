import { toCsv as csv } from '#server/lib/csv.ts'

/** The waitlist as CSV: one row per address, oldest first. */
export function toCsv(rows: { email: string; createdAt: Date }[]): string {
  return csv(
    ['email', 'joined_at'],
    rows.map((r) => [r.email, r.createdAt.toISOString()]),
  )
}
