import { PageSpinner } from '#client/components/ui/spinner.tsx'
import { useUser } from '#client/features/auth/api/get-user.ts'
import { SignInDialog } from '#client/features/auth/components/sign-in-dialog.tsx'
import { UpgradeDialog } from '#client/features/billing/components/upgrade-dialog.tsx'
import { useSubscriptionSuccess } from '#client/features/billing/hooks/use-subscription-success.ts'
import { ChatHeader } from './components/chat-header.tsx'

export default function ChatPage() {
  const { user, isLoading } = useUser()
  useSubscriptionSuccess()
  if (isLoading) return <PageSpinner />
  return (
    <div className="flex h-dvh flex-col">
      <ChatHeader />
      <main className="flex flex-1 flex-col items-center justify-center gap-2 px-4 text-center">
        {user ? (
          <p className="text-muted-foreground">Signed in as {user.email}</p>
        ) : (
          <>
            <h1 className="text-3xl font-semibold">Loris is ready to help</h1>
            <p className="text-muted-foreground">Ask away and start making a positive impact</p>
          </>
        )}
      </main>
      <SignInDialog />
      <UpgradeDialog />
    </div>
  )
}
