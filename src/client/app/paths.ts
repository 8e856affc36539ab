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
} as const
