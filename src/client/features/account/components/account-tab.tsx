import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { PaymentManagement } from '#client/features/billing/components/payment-management.tsx'
import { UpgradeCard } from '#client/features/billing/components/upgrade-card.tsx'
import type { User } from '#contract/user.ts'
import { accountTypeLabel } from '../account-type.ts'

export function AccountTab({ user }: { user: User }) {
  const memberSince = new Date(user.createdAt).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  })
  return (
    <div className="grid gap-6">
      {user.isPremium ? null : <UpgradeCard />}
      <Card>
        <CardHeader>
          <CardTitle>Profile Information</CardTitle>
          <CardDescription>Your account details</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-4 text-sm">
            <div>
              <dt className="text-muted-foreground">Email</dt>
              <dd className="mt-1 font-medium" data-testid="profile-email">
                {user.email}
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Account type</dt>
              <dd className="mt-1 font-medium" data-testid="account-type">
                {accountTypeLabel(user)}
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Member since</dt>
              <dd className="mt-1 font-medium">{memberSince}</dd>
            </div>
          </dl>
        </CardContent>
      </Card>
      {user.isPremium ? <PaymentManagement /> : null}
    </div>
  )
}
