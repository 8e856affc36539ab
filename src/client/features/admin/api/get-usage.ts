import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { apiJson } from '#client/lib/api.ts'
import type { AdminUsageResponse } from '#contract/admin.ts'

export interface UsageRange {
  from: string
  to: string
  by: 'day' | 'model' | 'plan'
}

export const usageUrl = ({ from, to, by }: UsageRange, format: 'json' | 'csv' = 'json') =>
  `/api/admin/usage?${new URLSearchParams({ from, to, by, ...(format === 'csv' ? { format } : {}) })}`

/** GET /api/admin/usage: the service's replies, tokens and impact for a range, grouped. */
export function useUsage(range: UsageRange) {
  return useQuery({
    queryKey: ['/api/admin/usage', range],
    queryFn: () => apiJson<AdminUsageResponse>('GET', usageUrl(range)),
    placeholderData: keepPreviousData,
  })
}
