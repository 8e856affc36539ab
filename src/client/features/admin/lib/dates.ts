// Days as the admin API takes them (YYYY-MM-DD, UTC) and times as the console shows them.

const DAY_MS = 86_400_000

/** The UTC day `daysAgo` days before now, as YYYY-MM-DD. */
export function utcDay(daysAgo = 0, now = Date.now()): string {
  return new Date(now - daysAgo * DAY_MS).toISOString().slice(0, 10)
}

/** 28 Nov 2026, 09:19 UTC: one reading for every operator, wherever they sit. */
export function dateTime(iso: string): string {
  return new Date(iso).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  })
}

/** 28 Nov 2026 (UTC). */
export function dateOnly(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  })
}
