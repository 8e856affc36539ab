import Sparkles from 'lucide-react/icons/sparkles'
import { useId } from 'react'
import { setUpgradeDialogOpen } from '#client/app/hooks/use-upgrade-dialog.ts'
import { Button } from '#client/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { PRICE_LABEL } from './subscribe-button.tsx'
import { UpgradeDialog } from './upgrade-dialog.tsx'

/** The account tab's upgrade card for free users (spec section 2); opens the upgrade dialog. */
export function UpgradeCard() {
  const titleId = useId()
  return (
    <Card
      aria-labelledby={titleId}
      className="border-primary/40 bg-gradient-to-br from-primary/10 via-card to-card"
      data-testid="upgrade-card"
    >
      <CardHeader>
        <CardTitle id={titleId} className="flex items-center gap-2">
          <Sparkles className="size-5 text-primary" aria-hidden="true" />
          Upgrade to Loris Pro
        </CardTitle>
        <CardDescription>
          No ads, far higher usage limits and the best models, for {PRICE_LABEL}. 10 percent of your
          subscription goes to environmental causes.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button onClick={() => setUpgradeDialogOpen(true)}>See Loris Pro</Button>
      </CardContent>
      {/* The chat page renders its own; on /account this card brings one along. */}
      <UpgradeDialog />
    </Card>
  )
}
