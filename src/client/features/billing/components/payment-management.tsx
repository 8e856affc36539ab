import { useId } from 'react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { useSubscriptionStatus } from '../api/get-subscription-status.ts'
import { formatDate } from '../lib/format-date.ts'
import { ManagePaymentsButton } from './manage-payments-button.tsx'

/** Premium users' Payment Management section (spec section 2): Stripe's customer portal. */
export function PaymentManagement() {
  const titleId = useId()
  const { data: status } = useSubscriptionStatus()
  const end = status?.subscription.current_period_end
  return (
    <Card aria-labelledby={titleId} data-testid="payment-management">
      <CardHeader>
        <CardTitle id={titleId}>Payment Management</CardTitle>
        <CardDescription>
          Update your card, download invoices or cancel your Loris Pro subscription in the secure Stripe
          customer portal.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {status?.isSubscribed && end ? (
          <p className="text-sm" data-testid="subscription-period-end">
            Current period ends on <span className="font-medium">{formatDate(end * 1000)}</span>
          </p>
        ) : null}
        <ManagePaymentsButton className="justify-self-start" />
      </CardContent>
    </Card>
  )
}
