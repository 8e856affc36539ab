import { type AdminLimits, type PlanLimits, planLimitsSchema } from '#contract/admin.ts'

// The plan limits form's values: text as typed, checked with the contract's own rules.

export const PLANS = [
  { id: 'free', label: 'Free plan' },
  { id: 'premium', label: 'Premium plan' },
] as const
export type Plan = (typeof PLANS)[number]['id']

export const FIELDS: { id: keyof PlanLimits; label: string }[] = [
  { id: 'charsPer30Days', label: 'Characters per 30 days' },
  { id: 'sendsPerMinute', label: 'Sends per minute' },
  { id: 'repliesAtOnce', label: 'Replies at once' },
]

export type Draft = Record<Plan, Record<keyof PlanLimits, string>>
export type Errors = Partial<Record<`${Plan}.${keyof PlanLimits}`, string>>

export const draftOf = (limits: AdminLimits): Draft => ({
  free: toDraft(limits.free),
  premium: toDraft(limits.premium),
})
const toDraft = (l: PlanLimits) => ({
  charsPer30Days: String(l.charsPer30Days),
  sendsPerMinute: String(l.sendsPerMinute),
  repliesAtOnce: String(l.repliesAtOnce),
})

/** The draft as numbers, or each field's message (the contract's own rules, as the server's). */
export function checkLimits(draft: Draft): { limits: AdminLimits } | { errors: Errors } {
  const errors: Errors = {}
  const limits = {} as AdminLimits
  for (const { id: plan } of PLANS) {
    const values = Object.fromEntries(
      FIELDS.map((f) => {
        const text = draft[plan][f.id].trim().replaceAll(',', '')
        return [f.id, text === '' ? Number.NaN : Number(text)]
      }),
    )
    const parsed = planLimitsSchema.safeParse(values)
    if (parsed.success) limits[plan] = parsed.data
    else
      for (const issue of parsed.error.issues) {
        const key = `${plan}.${String(issue.path[0])}` as keyof Errors
        errors[key] ??= issue.message
      }
  }
  return Object.keys(errors).length > 0 ? { errors } : { limits }
}
