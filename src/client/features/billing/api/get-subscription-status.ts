import { queryOptions, useQuery } from '@tanstack/react-query'
import { useAppConfig } from '#client/app/api/get-config.ts'
import { useUser } from '#client/app/api/get-user.ts'
import { ApiError } from '#client/lib/api.ts'
import type { SubscriptionStatus } from '#contract/billing.ts'

export const subscriptionStatusQueryKey = ['/api/subscription/status'] as const

// Spec section 7: retried up to 3 times, except on 401 (signed out: retrying cannot help).
export const subscriptionStatusQueryOptions = queryOptions<SubscriptionStatus>({
  queryKey: subscriptionStatusQueryKey,
  retry: (failures, err) => failures < 3 && !(err instanceof ApiError && err.status === 401),
})

/** Asked only for a signed-in user on a server that takes payments (without, it is always "not subscribed"). */
export function useSubscriptionStatus() {
  const { user } = useUser()
  const payments = useAppConfig()?.payments.available ?? false
  return useQuery({ ...subscriptionStatusQueryOptions, enabled: Boolean(user) && payments })
}
