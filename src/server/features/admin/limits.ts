// The plan limits a send obeys: the operator's (plan_limits, read by every node) or these
// defaults, the product's own (spec section 9; lib/usage.ts and chat/admission.ts).
import type { AdminLimits } from '#contract/admin.ts'
import { PLAN_LIMITS } from '#contract/plan.ts'

export const defaultLimits: AdminLimits = PLAN_LIMITS
