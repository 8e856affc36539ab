import { lazy, Suspense } from 'react'
import { PageSpinner } from '#client/components/ui/spinner.tsx'
import { useUser } from '#client/features/auth/api/get-user.ts'

const AccountPage = lazy(() => import('#client/features/account/account-page.tsx'))
const NotFoundPage = lazy(() =>
  import('#client/features/not-found/not-found-page.tsx').then((m) => ({ default: m.NotFoundPage })),
)

/** Spec section 2: /account is registered only for a signed-in user; a visitor gets the 404 screen. */
export default function AccountRoute() {
  const { user, isLoading } = useUser()
  if (isLoading) return <PageSpinner />
  return <Suspense fallback={<PageSpinner />}>{user ? <AccountPage /> : <NotFoundPage />}</Suspense>
}
