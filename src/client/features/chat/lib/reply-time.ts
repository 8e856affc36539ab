// When a reply came, as its footer says it.

/**
 * When the reply came: the time for today's, with the date for older ones ('Nov 26, 06:59 AM'), and
 * the year when it is not this one.
 */
export function replyTime(
  iso: string | null | undefined,
  now = new Date(),
): { text: string; iso: string } | null {
  if (!iso) return null
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return null
  const time: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' }
  if (date.toDateString() === now.toDateString()) return { text: date.toLocaleTimeString([], time), iso }
  const year = date.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' as const }
  return { text: date.toLocaleString([], { month: 'short', day: 'numeric', ...year, ...time }), iso }
}
