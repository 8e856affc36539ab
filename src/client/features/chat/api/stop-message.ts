import { useMutation } from '@tanstack/react-query'
import { toast } from '#client/hooks/use-toast.ts'
import { apiJson, errorText } from '#client/lib/api.ts'
import type { StopMessageResponse } from '#contract/messages.ts'

/** Stops a reply being generated; what arrived is kept (stored as interrupted). */
export function useStopMessage() {
  return useMutation({
    mutationFn: (id: string) => apiJson<StopMessageResponse>('POST', `/api/messages/${id}/stop`),
    onError: (err) =>
      toast({
        title: 'Could not stop the reply',
        description: errorText(err, 'Please try again.'),
        variant: 'destructive',
      }),
  })
}
