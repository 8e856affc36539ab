// /chat (spec section 2): the header, then the thread list (panels on large screens, a drawer
// below) beside the conversation; visitors get the conversation column only.
import { PageSpinner } from '#client/components/ui/spinner.tsx'
import { useUser } from '#client/features/auth/api/get-user.ts'
import { SignInDialog } from '#client/features/auth/components/sign-in-dialog.tsx'
import { VerifyEmailBanner } from '#client/features/auth/components/verify-email-banner.tsx'
import { UpgradeDialog } from '#client/features/billing/components/upgrade-dialog.tsx'
import { useSubscriptionSuccess } from '#client/features/billing/hooks/use-subscription-success.ts'
import { useThreads } from '#client/features/threads/api/get-threads.ts'
import { ChatHeader } from './components/chat-header.tsx'
import { ChatView } from './components/chat-view.tsx'
import { DesktopLayout } from './components/desktop-layout.tsx'
import { ThreadsDrawer } from './components/threads-drawer.tsx'
import { ThreadsPanel } from './components/threads-panel.tsx'
import { LARGE_QUERY, useMediaQuery } from './hooks/use-media-query.ts'
import { useStripAuthParam } from './hooks/use-pending-draft.ts'
import { useThreadSelection } from './hooks/use-thread-selection.ts'

export default function ChatPage() {
  const { user, isLoading } = useUser()
  const large = useMediaQuery(LARGE_QUERY)
  const threads = useThreads(Boolean(user))
  useThreadSelection(Boolean(user), threads.data, !threads.hasNextPage)
  useStripAuthParam()
  useSubscriptionSuccess()

  if (isLoading) return <PageSpinner />
  return (
    <div className="flex h-dvh flex-col overflow-hidden">
      <ChatHeader start={user && !large ? <ThreadsDrawer /> : undefined} />
      <VerifyEmailBanner />
      {user && large ? (
        <DesktopLayout threads={<ThreadsPanel />} chat={<ChatView />} />
      ) : (
        <main className="flex min-h-0 flex-1 flex-col">
          <ChatView />
        </main>
      )}
      <SignInDialog />
      <UpgradeDialog />
    </div>
  )
}
