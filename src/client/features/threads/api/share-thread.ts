import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiJson } from '#client/lib/api.ts'
import type { CreateShareBody, CreateShareResponse } from '#contract/sharing.ts'

export const sharesQueryKey = ['/api/shares'] as const

/** POST /api/threads/:id/share: a read-only link to the thread as it stands now. */
export function useShareThread() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, ...body }: CreateShareBody & { id: string }) =>
      apiJson<CreateShareResponse>('POST', `/api/threads/${id}/share`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharesQueryKey }),
  })
}
