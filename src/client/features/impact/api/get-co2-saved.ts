import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query'

/** Spec section 7: GET /api/metrics/co2 answers a plain number of grams under this key. */
export const co2SavedQueryKey = ['/api/metrics/co2'] as const

// Fresh on every mount: the key is the same for whoever is signed in (spec 7), and a cached
// number must never outlive a sign-out and sign-in in the same tab.
export const co2SavedQueryOptions = queryOptions<number>({
  queryKey: co2SavedQueryKey,
  refetchOnMount: 'always',
})

export function useCo2Saved(enabled: boolean) {
  return useQuery({ ...co2SavedQueryOptions, enabled })
}

/**
 * Call when a reply completes: the total, its range and the daily history all live under
 * /api/metrics/co2 (prefix match), and those queries never go stale on their own (spec 9).
 */
export function invalidateCo2Metrics(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: co2SavedQueryKey })
}
