import { queryOptions, useQuery } from '@tanstack/react-query'
import { throwIfNotOk } from '#client/lib/api.ts'
import type { Session, User } from '#contract/user.ts'

export const userQueryKey = ['/api/user'] as const

// Spec section 9: user data is fresh for 30 s and refetched on window focus; null means visitor.
// It is read from GET /api/session (decision 018), which answers a visitor with `user: null`
// rather than GET /api/user's 401, which the browser would log as an error on every visit.
export const userQueryOptions = queryOptions({
  queryKey: userQueryKey,
  queryFn: async ({ signal }): Promise<User | null> => {
    const res = await fetch('/api/session', { credentials: 'include', signal })
    await throwIfNotOk(res)
    return ((await res.json()) as Session).user
  },
  staleTime: 30_000,
  refetchOnWindowFocus: true,
})

export function useUser() {
  const query = useQuery(userQueryOptions)
  return { user: query.data ?? null, isLoading: query.isLoading, error: query.error }
}
