import { type QueryClient, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useLocation, useSearch } from 'wouter'
import { userQueryOptions } from '#client/app/api/get-user.ts'
import { toast } from '#client/hooks/use-toast.ts'
import { isProNow } from '#client/lib/pro-now.ts'
import { subscriptionStatusQueryKey } from '../api/get-subscription-status.ts'

const POLL_MS = 2000
const POLLS = 10

const WELCOME = {
  title: 'Welcome to Loris Pro!',
  description: 'Your subscription has been activated. Enjoy unlimited eco-conscious AI assistance.',
  duration: 5000,
}

// Stripe's webhook can reach the server a little after the browser comes back from Checkout:
// ask again for a short while until the user is Pro. True once they are.
async function refreshUntilPremium(queryClient: QueryClient): Promise<boolean> {
  for (let i = 0; i < POLLS; i++) {
    const user = await queryClient.fetchQuery({ ...userQueryOptions, staleTime: 0 }).catch(() => null)
    await queryClient.invalidateQueries({ queryKey: subscriptionStatusQueryKey })
    if (!user) return false
    if (isProNow(user)) return true
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
  return false
}

/**
 * Back from Checkout with ?subscription=success on /chat (spec section 2), then the account
 * page. The spec's welcome toast is said once the account really is Pro; until the webhook lands
 * the person is told the payment is being confirmed, never that it is active.
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
    const confirm = async () => {
      const user = await queryClient.fetchQuery({ ...userQueryOptions, staleTime: 0 }).catch(() => null)
      if (isProNow(user)) {
        toast(WELCOME)
        void queryClient.invalidateQueries({ queryKey: subscriptionStatusQueryKey })
        return
      }
      const waiting = toast({
        title: 'Confirming your payment',
        description: 'Your payment is being confirmed. Loris Pro starts as soon as it is.',
        duration: POLL_MS * (POLLS + 2),
      })
      const premium = await refreshUntilPremium(queryClient)
      waiting.dismiss()
      if (premium) toast(WELCOME)
      else
        toast({
          title: 'Payment not confirmed yet',
          description:
            'We have not received the confirmation of your payment yet. Your account page shows Loris Pro as soon as it arrives.',
        })
    }
    void confirm()
    // Replace, so Back does not land on the success URL and welcome the user twice.
    navigate('/account', { replace: true })
  }, [success, navigate, queryClient])
}
