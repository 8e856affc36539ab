import { useMutation, useQueryClient } from '@tanstack/react-query'
import { userQueryKey } from '#client/app/api/get-user.ts'
import { toast } from '#client/hooks/use-toast.ts'
import { apiJson, errorText } from '#client/lib/api.ts'
import type { RedirectUrl } from '#contract/billing.ts'
import { useResetOnPageRestore } from '../hooks/use-reset-on-page-restore.ts'
import { subscriptionStatusQueryKey } from './get-subscription-status.ts'

export const createPortalSession = () => apiJson<RedirectUrl>('POST', '/api/create-portal-session')

/** Opens Stripe's customer portal (spec section 7): caches refreshed first, then the redirect. */
export function useCreatePortalSession() {
  const queryClient = useQueryClient()
  const mutation = useMutation({
    mutationFn: createPortalSession,
    onSuccess: async ({ url }) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: userQueryKey }),
        queryClient.invalidateQueries({ queryKey: subscriptionStatusQueryKey }),
      ])
      window.location.assign(url)
    },
    onError: (err) =>
      toast({
        title: 'Portal access error',
        description: errorText(err, 'Failed to access customer portal'),
        variant: 'destructive',
      }),
  })
  useResetOnPageRestore(mutation.reset)
  return mutation
}
