import type { QueryClient } from '@tanstack/react-query'
import Loader2 from 'lucide-react/icons/loader-circle'
import {
  type ComponentType,
  lazy,
  type ReactNode,
  Suspense,
  startTransition,
  useEffect,
  useState,
} from 'react'
import { Redirect, Route, Router, Switch, useLocation } from 'wouter'
import { type ModuleLoader, moduleLoader } from '#client/lib/module-loader.ts'
import { paths, routePattern } from '#contract/paths.ts'
import { LoadFailureBoundary } from './load-failure-boundary.tsx'

type PageModule = {
  default: ComponentType
  /** Fetches what the page shows first, so it mounts once with it (see chat-page.tsx). */
  prepare?: (client: QueryClient) => Promise<void>
}

/**
 * A lazy page inside PageShell (React Query, tooltips). The shell loads in parallel with the
 * page; the landing page does without it, so its first load stays under 90 KB.
 */
async function loadShellPage(load: () => Promise<PageModule>): Promise<ComponentType> {
  const [{ PageShell, queryClient }, page] = await Promise.all([import('./page-shell.tsx'), load()])
  await page.prepare?.(queryClient)
  const Page = page.default
  return () => (
    <PageShell>
      <Page />
    </PageShell>
  )
}

function shellPage(load: () => Promise<PageModule>) {
  return lazy(async () => ({ default: await loadShellPage(load) }))
}

/**
 * The chat: a shellPage whose first render is a transition, which React renders in
 * slices, so a phone's main thread is never blocked long by the chat mounting. Until then it
 * shows the same spinner as the other routes' Suspense fallback.
 */
function SlicedShellPage({ page }: { page: ModuleLoader<ComponentType> }) {
  const [shown, setShown] = useState<{ Page: ComponentType } | { error: unknown } | null>(() => {
    const Page = page.current()
    return Page ? { Page } : null
  })
  useEffect(() => {
    if (shown) return
    let live = true
    page.load().then(
      (Page) => live && startTransition(() => setShown({ Page })),
      (error: unknown) => live && setShown({ error }),
    )
    return () => {
      live = false
    }
  }, [page, shown])
  if (!shown) return <RouteSpinner />
  // A chunk that failed to load fails the route as React.lazy does (RoutesBoundary catches it).
  if ('error' in shown) throw shown.error
  return <shown.Page />
}

// Each screen is its own chunk: the landing page never downloads the chat code.
const LandingPage = lazy(() => import('#client/features/landing/landing-page.tsx'))
const chatPage = moduleLoader(() => loadShellPage(() => import('#client/app/routes/chat/chat-page.tsx')))
const ChatPage = () => <SlicedShellPage page={chatPage} />
const HowItWorksPage = shellPage(() => import('#client/features/impact/how-it-works-page.tsx'))
const AccountRoute = shellPage(() => import('./account-route.tsx'))
const PrivacyPolicyPage = shellPage(() => import('#client/features/legal/privacy-policy-page.tsx'))
const TermsOfServicePage = shellPage(() => import('#client/features/legal/terms-of-service-page.tsx'))
const AuthPage = shellPage(() => import('#client/features/auth/auth-page.tsx'))
const SharePage = shellPage(() => import('#client/app/routes/share-page.tsx'))
const VerifyEmailPage = shellPage(() => import('#client/features/auth/verify-email-page.tsx'))
const ResetPasswordPage = shellPage(() => import('#client/features/auth/reset-password-page.tsx'))
// The operator's console: its own chunk, never part of the chat's or the landing page's load.
const AdminPage = shellPage(() => import('#client/app/routes/admin-page.tsx'))
// Until the full /auth page: the target of an operator's invitation link.
const NotFoundPage = shellPage(() =>
  import('#client/features/not-found/not-found-page.tsx').then((m) => ({ default: m.NotFoundPage })),
)

// PageSpinner's look without cn(), which would pull tailwind-merge into the landing page's load.
function RouteSpinner() {
  return (
    <div className="flex min-h-dvh items-center justify-center">
      <Loader2 role="status" aria-label="Loading" className="size-8 animate-spin text-primary" />
    </div>
  )
}

// Per-route document titles (tabs, history, bookmarks); the landing page keeps index.html's.
const SITE_TITLE = 'Loris: AI chat that cares for the planet'
const titles: Record<string, string> = {
  [paths.landing]: SITE_TITLE,
  [paths.chat]: 'Chat | Loris',
  [paths.howItWorks]: 'How Loris works | Loris',
  [paths.account]: 'Account settings | Loris',
  [paths.privacyPolicy]: 'Privacy Policy | Loris',
  [paths.termsOfService]: 'Terms of Service | Loris',
  [paths.verifyEmail]: 'Confirm your e-mail | Loris',
  [paths.resetPassword]: 'Choose a new password | Loris',
  [paths.admin]: "Operator's console | Loris",
  [paths.auth]: 'Sign in | Loris',
}

function DocumentTitle() {
  const [location] = useLocation()
  useEffect(() => {
    // Only a run's first slash may start the match: /\/+$/ tried every slash of a long run inside
    // an address (a crafted link), which took the square of its length.
    const path = location.toLowerCase().replace(/(?<!\/)\/+$/, '') || '/'
    // A shared conversation titles itself once it has loaded.
    if (path.startsWith('/share/')) return
    const page = /^\/chat\/[^/]+$/.test(path) ? paths.chat : path
    document.title = titles[page] ?? 'Page not found | Loris'
  }, [location])
  return null
}

/** A page that fails to load or render never blanks the app; another address tries again. */
function RoutesBoundary({ children }: { children: ReactNode }) {
  const [location] = useLocation()
  return <LoadFailureBoundary resetKey={location}>{children}</LoadFailureBoundary>
}

export function AppRouter({ base }: { base?: string }) {
  // Spec section 2: route matching is case-insensitive (params, optionals, wildcards still work).
  return (
    <Router parser={routePattern} base={base}>
      <DocumentTitle />
      <RoutesBoundary>
        <Suspense fallback={<RouteSpinner />}>
          <Switch>
            <Route path={paths.landing} component={LandingPage} />
            {/* One route for /chat and /chat/:threadId: moving between threads keeps the page. */}
            <Route path={paths.chatThread} component={ChatPage} />
            <Route path={paths.howItWorks} component={HowItWorksPage} />
            <Route path={paths.account} component={AccountRoute} />
            <Route path={paths.privacyPolicy} component={PrivacyPolicyPage} />
            <Route path={paths.termsOfService} component={TermsOfServicePage} />
            <Route path={paths.share} component={SharePage} />
            <Route path={paths.auth} component={AuthPage} />
            <Route path={paths.login}>
              <Redirect to={`${paths.auth}?tab=signin`} replace />
            </Route>
            <Route path={paths.signup}>
              <Redirect to={`${paths.auth}?tab=signup`} replace />
            </Route>
            <Route path={paths.verifyEmail} component={VerifyEmailPage} />
            <Route path={paths.resetPassword} component={ResetPasswordPage} />
            <Route path={paths.admin} component={AdminPage} />
            <Route component={NotFoundPage} />
          </Switch>
        </Suspense>
      </RoutesBoundary>
    </Router>
  )
}
