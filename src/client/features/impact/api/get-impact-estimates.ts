import { keepPreviousData, queryOptions, useQueries } from '@tanstack/react-query'
import type { ImpactEstimateResponse } from '#contract/impact.ts'

export interface EstimateParams {
  model: string
  outputTokens: number
  /** Absent: the provider's own data-centre zone. */
  zone?: string
}

export function impactEstimateQueryOptions({ model, outputTokens, zone }: EstimateParams) {
  const query = new URLSearchParams({ model, outputTokens: String(outputTokens) })
  if (zone) query.set('zone', zone)
  return queryOptions<ImpactEstimateResponse>({
    queryKey: [`/api/impact/estimate?${query}`],
    // The table keeps its numbers while the next ones load, so it does not flash empty.
    placeholderData: keepPreviousData,
  })
}

/** One estimate per model, for the same reply length and zone. */
export function useImpactEstimates(models: readonly string[], outputTokens: number, zone?: string) {
  return useQueries({
    queries: models.map((model) => impactEstimateQueryOptions({ model, outputTokens, zone })),
  })
}
