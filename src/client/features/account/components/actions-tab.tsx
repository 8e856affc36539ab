import { LogOut } from 'lucide-react'
import { Button } from '#client/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#client/components/ui/card.tsx'
import { useLogout } from '#client/features/auth/api/logout.ts'

export function ActionsTab() {
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
    </div>
  )
}
