import { keepPreviousData, queryOptions, useQueries } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
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
    placeholderData: keepPreviousData,
  })
}

/**
 * One estimate per model, for the same reply length and zone. While the figures for a new length
 * or zone load, each model's last ones stand in (`isPlaceholderData`), so the table does not
 * flash empty: `useQueries` gives a changed key a new observer, which has no previous data for
 * keepPreviousData to keep.
 */
export function useImpactEstimates(models: readonly string[], outputTokens: number, zone?: string) {
  const shown = useRef(new Map<string, ImpactEstimateResponse>())
  const results = useQueries({
    queries: models.map((model) => ({
      ...impactEstimateQueryOptions({ model, outputTokens, zone }),
      placeholderData: (previous: ImpactEstimateResponse | undefined) => previous ?? shown.current.get(model),
    })),
  })
  useEffect(() => {
    models.forEach((model, i) => {
      const data = results[i]?.data
      if (data) shown.current.set(model, data)
    })
  })
  return results
}
