// The plan limits a send obeys: the operator's (plan_limits, read by every node) or these
// defaults, the product's own (spec section 9; chat/usage.ts and chat/admission.ts).
import type { AdminLimits } from '#contract/admin.ts'

export const defaultLimits: AdminLimits = {
  free: { charsPer30Days: 100_000, sendsPerMinute: 20, repliesAtOnce: 3 },
  premium: { charsPer30Days: 1_000_000, sendsPerMinute: 20, repliesAtOnce: 3 },
}
