import type { QueryClient } from '@tanstack/react-query'
import { lazy, Suspense } from 'react'
import { userQueryOptions, useUser } from '#client/app/api/get-user.ts'
import { Button } from '#client/components/ui/button.tsx'
import { PageSpinner } from '#client/components/ui/spinner.tsx'

const loadAccountPage = () => import('#client/app/routes/account/account-page.tsx')
const AccountPage = lazy(loadAccountPage)

/**
 * Who is signed in and the settings code, fetched together before the route first renders (the
 * router waits for it, as for the chat): the page then shows the account at once, instead of
 * asking for its code only once the answer about who is signed in has come. The HTML preloads
 * both (src/server/lib/route-preloads.ts). Who is signed in, when it fails, is left to the route,
 * which shows it; settings code that fails to load fails the route, as a lazy page does
 * (load-failure-boundary.tsx reloads for a new version).
 */
export async function prepare(client: QueryClient) {
  await Promise.all([client.prefetchQuery(userQueryOptions), loadAccountPage()])
}
const NotFoundPage = lazy(() =>
  import('#client/features/not-found/not-found-page.tsx').then((m) => ({ default: m.NotFoundPage })),
)

/** Spec section 2: /account is registered only for a signed-in user; a visitor gets the 404 screen. */
export default function AccountRoute() {
  const { user, isLoading, error, isFetching, refetch } = useUser()
  if (isLoading) return <PageSpinner />
  // Who is signed in could not be told (a 503 on coming back from Stripe's portal): that is no
  // visitor, and a 404 would tell a signed-in person their settings are gone.
  if (!user && error) return <SessionCheckFailed retrying={isFetching} onRetry={() => void refetch()} />
  return <Suspense fallback={<PageSpinner />}>{user ? <AccountPage /> : <NotFoundPage />}</Suspense>
}

function SessionCheckFailed({ retrying, onRetry }: { retrying: boolean; onRetry: () => void }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center">
      <p role="alert">We could not check that you are signed in. Please try again.</p>
      <Button onClick={onRetry} disabled={retrying}>
        {retrying ? 'Retrying…' : 'Retry'}
      </Button>
    </main>
  )
}
