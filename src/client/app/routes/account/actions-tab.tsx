import LogOut from 'lucide-react/icons/log-out'
import { useLogout } from '#client/app/api/logout.ts'
import { Button } from '#client/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { DeleteAccountDialog } from '#client/features/account/components/delete-account-dialog.tsx'
import { DownloadDataCard } from '#client/features/portability/components/download-data-card.tsx'
import { ImportCard } from '#client/features/portability/components/import-card.tsx'
import { SharedLinksCard } from '#client/features/sharing/components/shared-links-card.tsx'

export function ActionsTab({ isPremium }: { isPremium: boolean }) {
  const logout = useLogout({
    errorTitle: 'Error signing out',
    errorDescription: 'Failed to sign out. Please try again.',
  })
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Sign Out</CardTitle>
          <CardDescription>Sign out of Loris on this device.</CardDescription>
        </CardHeader>
        <CardContent>
          <Button variant="outline" onClick={() => logout.mutate({})} disabled={logout.isPending}>
            <LogOut /> Sign Out
          </Button>
        </CardContent>
      </Card>
      <SharedLinksCard />
      <DownloadDataCard />
      <ImportCard />
      <Card className="border-destructive/60">
        <CardHeader>
          <CardTitle className="text-destructive">Danger Zone</CardTitle>
          <CardDescription>Delete your account and everything in it. This cannot be undone.</CardDescription>
        </CardHeader>
        <CardContent>
          <DeleteAccountDialog isPremium={isPremium} />
        </CardContent>
      </Card>
    </div>
  )
}
