import { useMutation, useQueryClient } from '@tanstack/react-query'
import { userQueryKey } from '#client/app/api/get-user.ts'
import { toast } from '#client/hooks/use-toast.ts'
import { ApiError, apiJson, errorText } from '#client/lib/api.ts'
import type { RedirectUrl } from '#contract/billing.ts'
import { useResetOnPageRestore } from '../hooks/use-reset-on-page-restore.ts'

export const subscribe = () => apiJson<RedirectUrl>('POST', '/api/subscribe')

/**
 * Starts Stripe Checkout; the browser leaves for Stripe's page. `isPending || isSuccess` is the
 * loading state, so the button keeps 'Processing...' until the page unloads.
 */
export function useSubscribe() {
  const queryClient = useQueryClient()
  const mutation = useMutation({
    mutationFn: subscribe,
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (err) => {
      toast({
        title: 'Subscription error',
        description: errorText(err, 'Failed to start the subscription'),
        variant: 'destructive',
      })
      // 409: the server found the subscription at Stripe before its webhook came; show Pro now.
      if (err instanceof ApiError && err.status === 409) {
        void queryClient.invalidateQueries({ queryKey: userQueryKey })
      }
    },
  })
  useResetOnPageRestore(mutation.reset)
  return mutation
}
