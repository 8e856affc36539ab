import Pencil from 'lucide-react/icons/pencil'
import { useState } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { accountTypeLabel } from '#client/features/account/account-type.ts'
import { InstructionsCard } from '#client/features/account/components/instructions-card.tsx'
import { UpdateEmailDialog } from '#client/features/account/components/update-email-dialog.tsx'
import { PaymentManagement } from '#client/features/billing/components/payment-management.tsx'
import { ProStatusButton } from '#client/features/billing/components/pro-status-button.tsx'
import { UpgradeCard } from '#client/features/billing/components/upgrade-card.tsx'
import { isProNow } from '#client/lib/pro-now.ts'
import type { User } from '#contract/user.ts'

export function AccountTab({ user }: { user: User }) {
  const [editing, setEditing] = useState(false)
  const memberSince = new Date(user.createdAt).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  })
  const pro = isProNow(user)
  return (
    <div className="grid gap-6">
      {pro ? null : <UpgradeCard />}
      <Card>
        <CardHeader>
          <CardTitle>Profile Information</CardTitle>
          <CardDescription>Your account details</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-4 text-sm">
            <div className="grid grid-cols-[1fr_auto] items-center gap-x-4">
              <dt className="text-muted-foreground">Email</dt>
              <dd className="col-start-1 mt-1 break-all font-medium" data-testid="profile-email">
                {user.email}
              </dd>
              {user.googleId ? (
                <dd className="col-start-1 mt-1 text-xs text-muted-foreground">
                  Linked to Google: your e-mail address is managed by your Google account.
                </dd>
              ) : (
                <dd className="col-start-2 row-span-2 row-start-1">
                  <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
                    <Pencil aria-hidden="true" />
                    Edit<span className="sr-only"> email</span>
                  </Button>
                </dd>
              )}
            </div>
            <div className="grid grid-cols-[1fr_auto] items-center gap-x-4">
              <dt className="text-muted-foreground">Account type</dt>
              <dd className="col-start-1 mt-1 font-medium" data-testid="account-type">
                {accountTypeLabel(user)}
              </dd>
              {pro ? (
                <dd className="col-start-2 row-span-2 row-start-1">
                  <ProStatusButton />
                </dd>
              ) : null}
            </div>
            <div>
              <dt className="text-muted-foreground">Member since</dt>
              <dd className="mt-1 font-medium">{memberSince}</dd>
            </div>
          </dl>
        </CardContent>
      </Card>
      <InstructionsCard />
      {pro ? <PaymentManagement /> : null}
      {user.googleId ? null : (
        <UpdateEmailDialog open={editing} onOpenChange={setEditing} currentEmail={user.email} />
      )}
    </div>
  )
}
