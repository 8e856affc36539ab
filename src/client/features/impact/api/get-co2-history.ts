import { queryOptions, useQuery } from '@tanstack/react-query'
import type { Co2HistoryResponse } from '#contract/impact.ts'

// Under the /api/metrics/co2 prefix (see invalidateCo2Metrics); fetched as /api/metrics/co2/history?days=N.
export function co2HistoryQueryOptions(days: number) {
  return queryOptions<Co2HistoryResponse>({
    queryKey: ['/api/metrics/co2', `history?days=${days}`],
    refetchOnMount: 'always',
  })
}

export function useCo2History(days: number) {
  return useQuery(co2HistoryQueryOptions(days))
}
