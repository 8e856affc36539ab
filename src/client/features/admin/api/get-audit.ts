import { useInfiniteQuery } from '@tanstack/react-query'
import { apiJson } from '#client/lib/api.ts'
import type { AdminAuditResponse } from '#contract/admin.ts'

export const auditQueryKey = ['/api/admin/audit'] as const

/** GET /api/admin/audit: every operator action, newest first, a page at a time. */
export function useAudit() {
  return useInfiniteQuery({
    queryKey: auditQueryKey,
    queryFn: ({ pageParam }) =>
      apiJson<AdminAuditResponse>(
        'GET',
        `/api/admin/audit${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  })
}
