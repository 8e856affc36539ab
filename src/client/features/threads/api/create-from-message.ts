import { useMutation, useQueryClient } from '@tanstack/react-query'
import { threadsQueryKey } from '#client/app/api/get-threads.ts'
import { toast } from '#client/hooks/use-toast.ts'
import { ApiError, apiJson } from '#client/lib/api.ts'
import type { Thread } from '#contract/threads.ts'

/** Spec section 4 'Thread creation from a message'; onCreated selects the new thread. */
export function useCreateThreadFromMessage({ onCreated }: { onCreated: (thread: Thread) => void }) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (messageId: string) =>
      apiJson<Thread>('POST', '/api/threads/create-from-message', { messageId }),
    onSuccess: async (thread) => {
      await queryClient.invalidateQueries({ queryKey: threadsQueryKey })
      onCreated(thread)
      toast({ title: 'Thread created', description: 'New thread created from this conversation' })
    },
    onError: (err) =>
      toast({
        title: 'Error',
        description: (err instanceof ApiError && err.serverMessage) || 'Failed to create thread',
        variant: 'destructive',
      }),
  })
}
