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
  // Opened from mailed links (decision 010), beyond the spec's routes.
  verifyEmail: '/verify-email',
  resetPassword: '/reset-password',
  /** The operator's console (decision 063). */
  admin: '/admin',
  /** Sign-up by an operator's invitation link (?tab=signup&email=&invite=). */
  auth: '/auth',
} as const
