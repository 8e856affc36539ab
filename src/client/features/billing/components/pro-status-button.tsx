import BadgeCheck from 'lucide-react/icons/badge-check'
import { setUpgradeDialogOpen } from '#client/app/hooks/use-upgrade-dialog.ts'
import { Button } from '#client/components/ui/button.tsx'
import { UpgradeDialog } from './upgrade-dialog.tsx'

/**
 * A Pro person's way to the upgrade dialog in its active state ('Loris Pro Subscription Active',
 * spec section 2), from the Account tab; free people reach it through the upgrade card.
 */
export function ProStatusButton() {
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setUpgradeDialogOpen(true)}>
        <BadgeCheck aria-hidden="true" />
        View subscription
      </Button>
      <UpgradeDialog />
    </>
  )
}
