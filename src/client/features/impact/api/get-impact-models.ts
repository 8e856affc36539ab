import { queryOptions, useQuery } from '@tanstack/react-query'
import type { ImpactModelsResponse } from '#contract/impact.ts'

// The whole EcoLogits catalogue (hundreds of models); the server marks it cacheable, and it only
// changes with a new build, so one fetch per visit is enough (the default: never stale).
export const impactModelsQueryOptions = queryOptions<ImpactModelsResponse>({
  queryKey: ['/api/impact/models'],
})

export function useImpactModels() {
  return useQuery(impactModelsQueryOptions)
}
