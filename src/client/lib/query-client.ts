import { MutationCache, QueryCache, QueryClient, type QueryFunction } from '@tanstack/react-query'
import { throwIfNotOk } from './api.ts'

/** Generic query: GET the path in the query key (spec section 7, first row). */
export function getQueryFn<T>({ on401 }: { on401: 'returnNull' | 'throw' }): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKey.join('/'), { credentials: 'include', signal })
    if (on401 === 'returnNull' && res.status === 401) return null as T
    await throwIfNotOk(res)
    return (await res.json()) as T
  }
}

// Spec section 9: never stale, no timers, no focus refetch, no retries, 5-minute GC. Queries
// that need fresher data (user 30 s, threads 60 s) say so in their own queryOptions.
/** The person's query (app/api/get-user.ts), named here as lib imports nothing of app or features. */
const USER_QUERY_KEY = ['/api/user']

/**
 * A 401 means the session ended (signed out in another tab, expired): the person is read again at
 * once, so the page turns to the visitor's view (and forgets their data) instead of failing.
 */
export function noticeSessionEnd(queryClient: QueryClient, error: unknown) {
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : 0
  if (status === 401) void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY })
}

export function createQueryClient() {
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error) => noticeSessionEnd(queryClient, error) }),
    mutationCache: new MutationCache({ onError: (error) => noticeSessionEnd(queryClient, error) }),
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        staleTime: Number.POSITIVE_INFINITY,
        refetchInterval: false,
        refetchOnWindowFocus: false,
        retry: false,
        gcTime: 5 * 60 * 1000,
      },
      mutations: { retry: false },
    },
  })
  return queryClient
}
