// Every route of spec section 2 in one place.
export const paths = {
  landing: '/',
  chat: '/chat',
  howItWorks: '/howitworks',
  account: '/account',
  privacyPolicy: '/privacy-policy',
  termsOfService: '/terms-of-service',
  share: '/share/:token',
} as const
