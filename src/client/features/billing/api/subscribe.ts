import { useMutation } from '@tanstack/react-query'
import { toast } from '#client/hooks/use-toast.ts'
import { apiJson, errorText } from '#client/lib/api.ts'
import type { RedirectUrl } from '#contract/billing.ts'
import { useResetOnPageRestore } from '../hooks/use-reset-on-page-restore.ts'

export const subscribe = () => apiJson<RedirectUrl>('POST', '/api/subscribe')

/**
 * Starts Stripe Checkout; the browser leaves for Stripe's page. `isPending || isSuccess` is the
 * loading state, so the button keeps 'Processing...' until the page unloads.
 */
export function useSubscribe() {
  const mutation = useMutation({
    mutationFn: subscribe,
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (err) =>
      toast({
        title: 'Subscription error',
        description: errorText(err, 'Failed to start the subscription'),
        variant: 'destructive',
      }),
  })
  useResetOnPageRestore(mutation.reset)
  return mutation
}
