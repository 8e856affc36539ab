import { lazy, Suspense } from 'react'
import { parse } from 'regexparam'
import { Route, Router, Switch } from 'wouter'
import { PageSpinner } from '#client/components/ui/spinner.tsx'
import { useUser } from '#client/features/auth/api/get-user.ts'
import { NotFoundPage } from '#client/features/not-found/not-found-page.tsx'
import { paths } from './paths.ts'

// Each screen is its own chunk: the landing page never downloads the chat code.
const LandingPage = lazy(() => import('#client/features/landing/landing-page.tsx'))
const ChatPage = lazy(() => import('#client/features/chat/chat-page.tsx'))
const HowItWorksPage = lazy(() => import('#client/features/how-it-works/how-it-works-page.tsx'))
const AccountPage = lazy(() => import('#client/features/account/account-page.tsx'))
const PrivacyPolicyPage = lazy(() => import('#client/features/legal/privacy-policy-page.tsx'))
const TermsOfServicePage = lazy(() => import('#client/features/legal/terms-of-service-page.tsx'))

// Spec section 2: route matching is case-insensitive (params, optionals, wildcards still work).
function caseInsensitiveParser(route: string, loose?: boolean) {
  const { pattern, keys } = parse(route, loose)
  return { pattern: new RegExp(pattern.source, 'i'), keys }
}

/** /account is registered only for a signed-in user; a visitor gets the 404 screen. */
function AccountRoute() {
  const { user, isLoading } = useUser()
  if (isLoading) return <PageSpinner />
  return user ? <AccountPage /> : <NotFoundPage />
}

export function AppRouter({ base }: { base?: string }) {
  return (
    <Router parser={caseInsensitiveParser} base={base}>
      <Suspense fallback={<PageSpinner />}>
        <Switch>
          <Route path={paths.landing} component={LandingPage} />
          <Route path={paths.chat} component={ChatPage} />
          <Route path={paths.howItWorks} component={HowItWorksPage} />
          <Route path={paths.account} component={AccountRoute} />
          <Route path={paths.privacyPolicy} component={PrivacyPolicyPage} />
          <Route path={paths.termsOfService} component={TermsOfServicePage} />
          <Route component={NotFoundPage} />
        </Switch>
      </Suspense>
    </Router>
  )
}
