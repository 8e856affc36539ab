import { adminLimitsSchema } from '#contract/admin.ts'

const LABELS = {
  charsPer30Days: 'characters per 30 days',
  sendsPerMinute: 'sends per minute',
  repliesAtOnce: 'replies at once',
} as const

/** "Free: sends per minute 10 → 5" for each limit a change of plan limits moved; null if not one. */
export function limitsChange(detail: Record<string, unknown>): string[] | null {
  const before = adminLimitsSchema.safeParse(detail.before)
  const after = adminLimitsSchema.safeParse(detail.after)
  if (!before.success || !after.success) return null
  const lines: string[] = []
  for (const plan of ['free', 'premium'] as const)
    for (const key of Object.keys(LABELS) as (keyof typeof LABELS)[]) {
      const was = before.data[plan][key]
      const is = after.data[plan][key]
      if (was !== is)
        lines.push(
          `${plan === 'free' ? 'Free' : 'Premium'}: ${LABELS[key]} ${was.toLocaleString('en-US')} → ${is.toLocaleString('en-US')}`,
        )
    }
  return lines
}
