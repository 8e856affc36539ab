import { queryOptions, useQuery } from '@tanstack/react-query'
import type { Co2SavedRangeResponse } from '#contract/impact.ts'

// Under the /api/metrics/co2 prefix so invalidateCo2Metrics refreshes it too; the default
// queryFn joins the key into /api/metrics/co2/range.
export const co2RangeQueryOptions = queryOptions<Co2SavedRangeResponse>({
  queryKey: ['/api/metrics/co2', 'range'],
  refetchOnMount: 'always',
})

export function useCo2Range(enabled: boolean) {
  return useQuery({ ...co2RangeQueryOptions, enabled })
}
