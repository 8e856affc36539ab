import { queryOptions, useQuery } from '@tanstack/react-query'
import type { ImpactCatalogResponse } from '#contract/impact.ts'

export const impactCatalogQueryOptions = queryOptions<ImpactCatalogResponse>({
  queryKey: ['/api/impact/catalog'],
})

export function useImpactCatalog() {
  return useQuery(impactCatalogQueryOptions)
}
