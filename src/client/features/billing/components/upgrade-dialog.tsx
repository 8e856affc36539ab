import BadgeCheck from 'lucide-react/icons/badge-check'
import { useEffect } from 'react'
import { useUser } from '#client/app/api/get-user.ts'
import { setUpgradeDialogOpen, useUpgradeDialogOpen } from '#client/app/hooks/use-upgrade-dialog.ts'
import { TitledDialog } from '#client/components/titled-dialog.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { DialogFooter } from '#client/components/ui/dialog.tsx'
import { isProNow } from '#client/lib/pro-now.ts'
import { formatDate } from '../lib/format-date.ts'
import { ManagePaymentsButton } from './manage-payments-button.tsx'
import { ProBenefits } from './pro-benefits.tsx'
import { SubscribeButton } from './subscribe-button.tsx'

/**
 * The upgrade dialog (spec sections 2 and 4): opened at a free user's 5th message or from an
 * upgrade button; for a subscriber it confirms Pro instead of selling it again.
 */
export function UpgradeDialog() {
  const open = useUpgradeDialogOpen()
  const { user } = useUser()
  const subscribed = isProNow(user)
  const until = user?.subscription_end_date ? formatDate(user.subscription_end_date) : null
  // The dialog opened here closes with its host (the upgrade card that gives way to the Pro
  // entry once a payment lands, a page left): no other instance pops up with it later.
  useEffect(() => () => setUpgradeDialogOpen(false), [])
  return (
    <TitledDialog
      open={open}
      onOpenChange={setUpgradeDialogOpen}
      className="sm:max-w-md"
      data-testid="upgrade-dialog"
      titleClassName="flex items-center justify-center gap-2 sm:justify-start"
      title={
        <>
          {subscribed ? <BadgeCheck className="size-5 text-primary" aria-hidden="true" /> : null}
          {subscribed ? 'Loris Pro Subscription Active' : 'Upgrade to Loris Pro'}
        </>
      }
      description={
        subscribed
          ? `Thank you for going Pro${until ? `: your subscription is active until ${until}` : ''}. 10 percent of it goes to environmental causes.`
          : 'More room to think, the best models, and a subscription that gives back to the planet.'
      }
    >
      <ProBenefits />
      {subscribed ? (
        <DialogFooter>
          <ManagePaymentsButton />
          <Button onClick={() => setUpgradeDialogOpen(false)}>Close</Button>
        </DialogFooter>
      ) : (
        <div className="grid gap-2">
          <SubscribeButton onSignInNeeded={() => setUpgradeDialogOpen(false)} />
          <Button variant="ghost" className="w-full" onClick={() => setUpgradeDialogOpen(false)}>
            Not now, keep talking for free
          </Button>
        </div>
      )}
    </TitledDialog>
  )
}
