// /chat and /chat/:threadId (spec section 2): the header, then the thread list (panels on large screens, a drawer
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
import { ShortcutsDialog } from './components/shortcuts-dialog.tsx'
import { ThreadsDrawer } from './components/threads-drawer.tsx'
import { ThreadsPanel } from './components/threads-panel.tsx'
import { ThreadsToggle } from './components/threads-toggle.tsx'
import { useChatShortcuts } from './hooks/use-chat-shortcuts.ts'
import { LARGE_QUERY, useMediaQuery } from './hooks/use-media-query.ts'
import { useStripAuthParam } from './hooks/use-pending-draft.ts'
import { useThreadSelection } from './hooks/use-thread-selection.ts'
import { useThreadUrl } from './hooks/use-thread-url.ts'

export default function ChatPage() {
  const { user, isLoading } = useUser()
  const large = useMediaQuery(LARGE_QUERY)
  const threads = useThreads(Boolean(user))
  // The address first: its effects run before the automatic pick's.
  useThreadUrl(Boolean(user), threads.data)
  useThreadSelection(Boolean(user), threads.data, !threads.hasNextPage)
  useStripAuthParam()
  const shortcuts = useChatShortcuts(Boolean(user))
  useSubscriptionSuccess()

  if (isLoading) return <PageSpinner />
  return (
    <div className="flex h-dvh flex-col overflow-hidden">
      <ChatHeader start={user ? large ? <ThreadsToggle /> : <ThreadsDrawer /> : undefined} />
      <VerifyEmailBanner />
      {user && large ? (
        <DesktopLayout threads={<ThreadsPanel />} chat={<ChatView />} />
      ) : (
        <main className="flex min-h-0 flex-1 flex-col">
          <ChatView />
        </main>
      )}
      {user && <ShortcutsDialog open={shortcuts.sheetOpen} onOpenChange={shortcuts.setSheetOpen} />}
      <SignInDialog />
      <UpgradeDialog />
    </div>
  )
}
