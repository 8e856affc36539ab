// /share/:token: a shared conversation, read-only, rendered with the chat's own
// exchange and markdown components. Anyone may read it; a signed-in reader can continue it in a
// thread of their own.
import { useQueryClient } from '@tanstack/react-query'
import MessageSquarePlus from 'lucide-react/icons/message-square-plus'
import { useEffect } from 'react'
import { Link, useLocation, useParams } from 'wouter'
import { threadsQueryKey } from '#client/app/api/get-threads.ts'
import { useUser } from '#client/app/api/get-user.ts'
import { setSignInDialogOpen } from '#client/app/hooks/use-sign-in-dialog.ts'
import { useStripAuthParam } from '#client/app/hooks/use-strip-auth-param.ts'
import { Button } from '#client/components/ui/button.tsx'
import { Spinner } from '#client/components/ui/spinner.tsx'
import { SignInDialog } from '#client/features/auth/components/sign-in-dialog.tsx'
import { Exchange } from '#client/features/chat/components/exchange.tsx'
import { selectThread } from '#client/features/chat/hooks/use-thread-selection.ts'
import { useContinueShare, useSharedConversation } from '#client/features/sharing/api/shares.ts'
import { ShareLoadFailed } from '#client/features/sharing/components/share-load-failed.tsx'
import { useContinueAfterSignIn } from '#client/features/sharing/hooks/use-continue-after-sign-in.ts'
import { savePendingContinue } from '#client/features/sharing/lib/pending-continue.ts'
import { toast } from '#client/hooks/use-toast.ts'
import { errorText } from '#client/lib/api.ts'
import { sharePath } from '#contract/sharing.ts'

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' })

export default function SharePage() {
  const { token = '' } = useParams<{ token: string }>()
  const shared = useSharedConversation(token)
  const { user } = useUser()
  const [, navigate] = useLocation()
  const queryClient = useQueryClient()
  const continueShare = useContinueShare()
  const title = shared.data?.title
  // Google sign-in comes back here (not to /chat), signed in: the conversation is continued as
  // after signing in with a password (useContinueAfterSignIn below).
  useStripAuthParam()
  useEffect(() => {
    document.title = title ? `${title} | Shared on Loris` : 'Shared conversation | Loris'
  }, [title])

  const onContinue = () => {
    if (!user) {
      savePendingContinue(token)
      setSignInDialogOpen(true)
      return
    }
    continueShare.mutate(token, {
      onSuccess: async (thread) => {
        await queryClient.invalidateQueries({ queryKey: threadsQueryKey })
        selectThread(thread)
        navigate(`/chat/${thread.id}`)
      },
      onError: (err) =>
        toast({
          title: 'Error',
          description: errorText(err, 'The conversation could not be copied'),
          variant: 'destructive',
        }),
    })
  }

  useContinueAfterSignIn(token, Boolean(user), onContinue)

  if (shared.isLoading)
    return <Spinner className="mx-auto mt-24 block size-6" label="Loading the shared conversation" />
  if (!shared.data)
    return (
      <ShareLoadFailed
        error={shared.error}
        retrying={shared.isFetching}
        onRetry={() => void shared.refetch()}
      />
    )
  const data = shared.data
  return (
    <main className="mx-auto w-full max-w-5xl px-4 py-8">
      <header className="flex flex-wrap items-end justify-between gap-4 border-b pb-4">
        <div>
          <p className="text-xs uppercase tracking-wide text-muted-foreground">Shared conversation</p>
          <h1 className="mt-1 text-2xl font-bold">{data.title}</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            Shared on {dateFormat.format(new Date(data.sharedAt))} · a snapshot: later messages are not shown
          </p>
        </div>
        <Button onClick={onContinue} disabled={continueShare.isPending}>
          <MessageSquarePlus aria-hidden="true" /> Continue this conversation
        </Button>
      </header>
      <section aria-label="Conversation">
        {/* A snapshot never changes: its exchanges' places are their keys. */}
        {data.exchanges.map((e, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed once loaded
          <Exchange key={i} exchange={{ ...e, id: null, pending: false }} />
        ))}
      </section>
      <footer className="mt-8 border-t pt-4 text-center text-sm text-muted-foreground">
        <Link href="/" className="text-primary hover:underline">
          Loris
        </Link>{' '}
        · AI chat that cares for the planet
      </footer>
      {!user && <SignInDialog returnTo={sharePath(token)} />}
    </main>
  )
}
