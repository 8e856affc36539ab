// Every route of spec section 2 in one place.
export const paths = {
  landing: '/',
  chat: '/chat',
  /** The chat route with its optional thread (issue 13); /chat/new is the empty conversation. */
  chatThread: '/chat/:threadId?',
  howItWorks: '/howitworks',
  account: '/account',
  privacyPolicy: '/privacy-policy',
  termsOfService: '/terms-of-service',
  share: '/share/:token',
  /** 'Welcome to Loris' as a full page (spec section 2); /login and /signup land on its tabs. */
  auth: '/auth',
  login: '/login',
  signup: '/signup',
  // Opened from mailed links (decision 010), beyond the spec's routes.
  verifyEmail: '/verify-email',
  resetPassword: '/reset-password',
} as const
