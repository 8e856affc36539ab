import { parse } from 'regexparam'

// Every route of spec section 2 in one place: the client's router shows them, and the server
// answers any other path 404 (with the same shell, whose router shows the not-found screen).
export const paths = {
  landing: '/',
  chat: '/chat',
  /** The chat route with its optional thread; /chat/new is the empty conversation. */
  chatThread: '/chat/:threadId?',
  howItWorks: '/howitworks',
  account: '/account',
  privacyPolicy: '/privacy-policy',
  termsOfService: '/terms-of-service',
  share: '/share/:token',
  // Opened from mailed links (decision 010), beyond the spec's routes.
  verifyEmail: '/verify-email',
  resetPassword: '/reset-password',
  /** The operator's console (decision 063). */
  admin: '/admin',
  /**
   * 'Welcome to Loris' as a full page (spec section 2); /login and /signup land on its tabs, and an
   * operator's invitation link opens it on Sign up (?tab=signup&email=&invite=).
   */
  auth: '/auth',
  login: '/login',
  signup: '/signup',
} as const

/** A route's pattern as the router matches it: case-insensitively (spec section 2). */
export function routePattern(route: string, loose?: boolean) {
  const { pattern, keys } = parse(route, loose)
  return { pattern: new RegExp(pattern.source, 'i'), keys }
}

const patterns = Object.values(paths).map((route) => routePattern(route).pattern)

/** Whether the router has a screen for `pathname` other than the not-found one. */
export function isAppPath(pathname: string): boolean {
  return patterns.some((pattern) => pattern.test(pathname))
}
