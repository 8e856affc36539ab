import { useInfiniteQuery } from '@tanstack/react-query'
import { apiJson } from '#client/lib/api.ts'
import type { AdminUsersQuery, AdminUsersResponse } from '#contract/admin.ts'

export const peopleQueryKey = ['/api/admin/users'] as const

export type PeopleFilters = Omit<AdminUsersQuery, 'cursor'>

/** Only the filters that are set, as the query string of GET /api/admin/users. */
function searchOf(filters: PeopleFilters, cursor: string | null): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value)
  if (cursor) params.set('cursor', cursor)
  const text = params.toString()
  return text ? `?${text}` : ''
}

/** GET /api/admin/users: pages of people with their usage, newest accounts first. */
export function usePeople(filters: PeopleFilters) {
  return useInfiniteQuery({
    queryKey: [...peopleQueryKey, filters],
    queryFn: ({ pageParam }) =>
      apiJson<AdminUsersResponse>('GET', `/api/admin/users${searchOf(filters, pageParam)}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  })
}
