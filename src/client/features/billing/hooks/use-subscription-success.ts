import { type QueryClient, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useLocation, useSearch } from 'wouter'
import { userQueryKey, userQueryOptions } from '#client/features/auth/api/get-user.ts'
import { toast } from '#client/hooks/use-toast.ts'
import { subscriptionStatusQueryKey } from '../api/get-subscription-status.ts'

const POLL_MS = 2000
const POLLS = 10

// Stripe's webhook can reach the server a little after the browser comes back from Checkout:
// ask again for a short while until the user is Pro.
async function refreshUntilPremium(queryClient: QueryClient) {
  for (let i = 0; i < POLLS; i++) {
    const user = await queryClient.fetchQuery({ ...userQueryOptions, staleTime: 0 }).catch(() => null)
    await queryClient.invalidateQueries({ queryKey: subscriptionStatusQueryKey })
    if (!user || user.isPremium) return
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
}

/**
 * Back from Checkout with ?subscription=success on /chat (spec section 2): welcome toast for
 * 5 s, fresh user and subscription status, then the account page.
 */
export function useSubscriptionSuccess() {
  const search = useSearch()
  const [, navigate] = useLocation()
  const queryClient = useQueryClient()
  const handled = useRef(false)
  const success = new URLSearchParams(search).get('subscription') === 'success'

  useEffect(() => {
    if (!success || handled.current) return
    handled.current = true
    toast({
      title: 'Welcome to Loris Pro!',
      description: 'Your subscription has been activated. Enjoy unlimited eco-conscious AI assistance.',
      duration: 5000,
    })
    void queryClient.invalidateQueries({ queryKey: userQueryKey })
    void refreshUntilPremium(queryClient)
    // Replace, so Back does not land on the success URL and welcome the user twice.
    navigate('/account', { replace: true })
  }, [success, navigate, queryClient])
}
