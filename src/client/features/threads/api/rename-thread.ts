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

export function useRenameThread() {
  const queryClient = useQueryClient()
  return useMutation({
    // Spec section 5: the title is trimmed before sending.
    mutationFn: ({ id, title }: { id: string; title: string }) =>
      apiJson<Thread>('PUT', `/api/threads/${id}/rename`, { title: title.trim() }),
    onSuccess: (thread) => {
      updateThreadList(queryClient, (list) => list.map((t) => (t.id === thread.id ? thread : t)))
      void queryClient.invalidateQueries({ queryKey: threadsQueryKey })
      // Matches show the thread's title.
      void queryClient.invalidateQueries({ queryKey: ['/api/search'] })
      toast({ title: 'Thread renamed successfully' })
    },
    onError: (error, { id }) =>
      isThreadGone(error)
        ? forgetGoneThread(queryClient, id)
        : toast({ title: 'Failed to rename thread', variant: 'destructive' }),
  })
}
