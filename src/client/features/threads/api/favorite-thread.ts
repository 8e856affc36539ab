import { useMutation, useQueryClient } from '@tanstack/react-query'
import {
  forgetGoneThread,
  isThreadGone,
  threadsQueryKey,
  updateThreadList,
} from '#client/app/api/get-threads.ts'
import { toast } from '#client/hooks/use-toast.ts'
import { apiJson } from '#client/lib/api.ts'
import type { Thread } from '#contract/threads.ts'

export function useFavoriteThread() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ id, isFavorite }: { id: string; isFavorite: boolean }) => {
      try {
        return await apiJson<Thread>('PUT', `/api/threads/${id}/favorite`, { isFavorite })
      } catch (err) {
        // Deleted elsewhere: said as such (onError), not as a failure to retry.
        if (isThreadGone(err)) throw err
        // Spec section 8: the internal text; the toast says 'Failed to update thread'.
        throw new Error('Failed to update favorite status')
      }
    },
    onSuccess: (thread) => {
      updateThreadList(queryClient, (list) => list.map((t) => (t.id === thread.id ? thread : t)))
      void queryClient.invalidateQueries({ queryKey: threadsQueryKey })
      toast({ title: 'Thread updated successfully' })
    },
    onError: (error, { id }) =>
      isThreadGone(error)
        ? forgetGoneThread(queryClient, id)
        : toast({ title: 'Failed to update thread', variant: 'destructive' }),
  })
}
