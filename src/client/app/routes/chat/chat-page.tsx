// /chat and /chat/:threadId (spec section 2): the header, then the thread list (panels on large screens, a drawer
// below) beside the conversation; visitors get the conversation column only.
import type { QueryClient } from '@tanstack/react-query'
import { configQueryOptions } from '#client/app/api/get-config.ts'
import { threadsQueryOptions, useThreads } from '#client/app/api/get-threads.ts'
import { userQueryOptions, useUser } from '#client/app/api/get-user.ts'
import { useStripAuthParam } from '#client/app/hooks/use-strip-auth-param.ts'
import { PageSpinner } from '#client/components/ui/spinner.tsx'
import { SignInDialog } from '#client/features/auth/components/sign-in-dialog.tsx'
import { UpgradeDialog } from '#client/features/billing/components/upgrade-dialog.tsx'
import { useSubscriptionSuccess } from '#client/features/billing/hooks/use-subscription-success.ts'
import { messagesQueryOptions } from '#client/features/chat/api/get-messages.ts'
import { ChatHeader } from '#client/features/chat/components/chat-header.tsx'
import { ShortcutsDialog } from '#client/features/chat/components/shortcuts-dialog.tsx'
import { TemporaryChat } from '#client/features/chat/components/temporary-chat.tsx'
import { ThreadsToggle } from '#client/features/chat/components/threads-toggle.tsx'
import { useChatShortcuts } from '#client/features/chat/hooks/use-chat-shortcuts.ts'
import { LARGE_QUERY, useMediaQuery } from '#client/features/chat/hooks/use-media-query.ts'
import { useTemporaryChatOpen } from '#client/features/chat/hooks/use-temporary-chat.ts'
import { pickUpcomingThread, useThreadSelection } from '#client/features/chat/hooks/use-thread-selection.ts'
import { useThreadUrl } from '#client/features/chat/hooks/use-thread-url.ts'
import { ImpactBadges } from '#client/features/impact/components/impact-badges.tsx'
import { VoiceRecorderProvider } from '#client/features/voice/components/voice-recorder-provider.tsx'
import { useLoadedModule } from '#client/lib/module-loader.ts'
import { ChatView } from './chat-view.tsx'
import { ThreadsDrawer } from './threads-drawer.tsx'
import { threadsUi } from './threads-ui.ts'

/**
 * What the chat shows first, fetched before it first renders (the router waits for it,
 * decision 018): who is signed in, the configuration, the threads and the messages of the thread
 * about to be shown (picked now, as the page would pick it once mounted). The page then mounts
 * once, complete, instead of mounting a spinner and re-rendering whole as each answer lands. The
 * chat's HTML preloads these answers (src/server/lib/route-preloads.ts). A request that fails is
 * left to the page's own queries, which retry and show the error.
 */
export async function prepare(client: QueryClient) {
  // A large screen shows the thread list beside the chat (and a visitor may sign in): its code
  // comes with the page there, so the layout never changes under the reader. A phone fetches
  // it when the drawer is about to open.
  const large = window.matchMedia(LARGE_QUERY).matches
  await Promise.all([
    client.prefetchQuery(userQueryOptions),
    client.prefetchQuery(configQueryOptions),
    large ? threadsUi.load().catch(() => undefined) : null,
  ])
  if (!client.getQueryData(userQueryOptions.queryKey)) return
  await client.prefetchInfiniteQuery(threadsQueryOptions)
  const threads = client.getQueryData(threadsQueryOptions.queryKey)
  const complete = threads?.pages.at(-1)?.nextCursor == null
  const threadId =
    threads &&
    pickUpcomingThread(
      threads.pages.flatMap((page) => page.items),
      complete,
    )
  if (threadId) await client.prefetchInfiniteQuery(messagesQueryOptions(threadId))
}

export default function ChatPage() {
  const { user, isLoading } = useUser()
  // The side panel needs its code: until that is in (a phone turned sideways), the phone's layout.
  const large = useMediaQuery(LARGE_QUERY)
  const ui = useLoadedModule(threadsUi, Boolean(user) && large)
  const desktop = large && ui
  const threads = useThreads(Boolean(user))
  // The address first: its effects run before the automatic pick's.
  useThreadUrl(Boolean(user), threads.data)
  useThreadSelection(Boolean(user), threads.data, !threads.hasNextPage)
  useStripAuthParam()
  const shortcuts = useChatShortcuts(Boolean(user))
  useSubscriptionSuccess()
  const temporary = useTemporaryChatOpen()

  if (isLoading) return <PageSpinner />
  // A temporary chat replaces the conversation until another thread is chosen.
  const chat = user && temporary ? <TemporaryChat /> : <ChatView />
  // The recording is held here, above the layout switch: crossing 1024 px mounts the chat column
  // again, and a recording in progress goes on through it.
  return (
    <VoiceRecorderProvider>
      <div className="flex h-dvh flex-col overflow-hidden">
        <ChatHeader
          start={user ? desktop ? <ThreadsToggle /> : <ThreadsDrawer /> : undefined}
          badges={user && <ImpactBadges user={user} />}
        />
        {user && desktop ? (
          <desktop.DesktopLayout threads={<desktop.ThreadsPanel />} chat={chat} />
        ) : (
          <main className="flex min-h-0 flex-1 flex-col">{chat}</main>
        )}
        {user && <ShortcutsDialog open={shortcuts.sheetOpen} onOpenChange={shortcuts.setSheetOpen} />}
        <SignInDialog />
        <UpgradeDialog />
      </div>
    </VoiceRecorderProvider>
  )
}
