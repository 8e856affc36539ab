import { useInfiniteQuery } from '@tanstack/react-query'
import { throwIfNotOk } from '#client/lib/api.ts'
import type { SearchResponse } from '#contract/search.ts'

/** Shortest query sent to the server; one letter would match half of everything. */
export const MIN_SEARCH_CHARS = 2

/** GET /api/search, page by page (cursor), for the debounced query. */
export function useMessageSearch(q: string) {
  const query = q.trim()
  return useInfiniteQuery({
    queryKey: ['/api/search', query],
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ q: query })
      if (pageParam) params.set('cursor', pageParam)
      return fetchSearch(`/api/search?${params}`, signal)
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: query.length >= MIN_SEARCH_CHARS,
    staleTime: 30_000,
  })
}

async function fetchSearch(url: string, signal: AbortSignal): Promise<SearchResponse> {
  const res = await fetch(url, { credentials: 'include', signal })
  await throwIfNotOk(res)
  return (await res.json()) as SearchResponse
}
