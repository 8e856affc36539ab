import { queryOptions, useQuery } from '@tanstack/react-query'
import { getQueryFn } from '#client/lib/query-client.ts'
import type { User } from '#contract/user.ts'

export const userQueryKey = ['/api/user'] as const

// Spec section 9: user data is fresh for 30 s and refetched on window focus; 401 means visitor.
export const userQueryOptions = queryOptions({
  queryKey: userQueryKey,
  queryFn: getQueryFn<User | null>({ on401: 'returnNull' }),
  staleTime: 30_000,
  refetchOnWindowFocus: true,
})

export function useUser() {
  const query = useQuery(userQueryOptions)
  return { user: query.data ?? null, isLoading: query.isLoading, error: query.error }
}
