import { useMutation, useQueryClient } from '@tanstack/react-query'
import {
  forgetGoneThread,
  isThreadGone,
  threadsQueryKey,
  updateThreadList,
} from '#client/app/api/get-threads.ts'
import { toast } from '#client/hooks/use-toast.ts'
import { apiJson } from '#client/lib/api.ts'
import type { DeleteThreadResponse } from '#contract/threads.ts'

export function useDeleteThread({ onDeleted }: { onDeleted?: (id: string) => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => apiJson<DeleteThreadResponse>('DELETE', `/api/threads/${id}`),
    onSuccess: ({ id }) => {
      updateThreadList(queryClient, (list) => list.filter((t) => t.id !== id))
      queryClient.removeQueries({ queryKey: ['/api/messages', id] })
      void queryClient.invalidateQueries({ queryKey: threadsQueryKey })
      // Matches found in it are gone with it.
      void queryClient.invalidateQueries({ queryKey: ['/api/search'] })
      onDeleted?.(id)
      toast({ title: 'Thread deleted successfully' })
    },
    onError: (error, id) => {
      // Deleted elsewhere already: what the person wanted is done.
      if (isThreadGone(error)) {
        forgetGoneThread(queryClient, id)
        onDeleted?.(id)
      } else toast({ title: 'Failed to delete thread', variant: 'destructive' })
    },
  })
}
