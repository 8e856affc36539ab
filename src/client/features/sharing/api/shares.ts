import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiJson, throwIfNotOk } from '#client/lib/api.ts'
import type { SharedConversation, ShareLink } from '#contract/sharing.ts'
import type { Thread } from '#contract/threads.ts'

export const sharesQueryKey = ['/api/shares'] as const

/**
 * GET /api/shares/:token: public; 404 once revoked. Not retried by itself (spec section 9): the
 * page tells a failed load from a gone link and offers Try again.
 */
export function useSharedConversation(token: string) {
  return useQuery({
    queryKey: ['/api/shares', token],
    queryFn: async ({ signal }) => {
      const res = await fetch(`/api/shares/${encodeURIComponent(token)}`, { signal })
      await throwIfNotOk(res)
      return (await res.json()) as SharedConversation
    },
    retry: false,
  })
}

export function useShareLinks() {
  return useQuery({ queryKey: sharesQueryKey, queryFn: () => apiJson<ShareLink[]>('GET', '/api/shares') })
}

export function useRevokeShare() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (token: string) => apiJson('DELETE', `/api/shares/${token}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharesQueryKey }),
  })
}

export function useContinueShare() {
  return useMutation({
    mutationFn: (token: string) => apiJson<Thread>('POST', `/api/shares/${token}/continue`),
  })
}
