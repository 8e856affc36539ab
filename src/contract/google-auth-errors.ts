// Why a Google sign-in did not finish, in words, without zod: the chat's first load shows them
// (decision 044; account.ts re-exports the type the server names).

/**
 * Why a Google sign-in did not finish. The server redirects to /chat?auth_error=<code> and the
 * client shows the message in a 'Google sign-in failed' toast (decision 005).
 */
export const googleAuthErrorMessages = {
  denied: 'Google sign-in was cancelled. You can try again or use your e-mail and password.',
  state: 'Your Google sign-in took too long or was started in another window. Please try again.',
  verification: 'We could not verify the answer from Google. Please try again.',
  unverified_email:
    'Google has not verified this e-mail address, so it cannot be linked to your Loris account. Sign in with your e-mail and password instead.',
  linked_elsewhere:
    'The Loris account with this e-mail is already linked to a different Google account. Sign in with that Google account or with your e-mail and password.',
  no_email: 'Google did not share an e-mail address for this account, so Loris cannot sign you in.',
  not_configured: 'Google sign-in is not configured on this server. Use your e-mail and password.',
  unavailable: 'Google sign-in is unavailable right now. Please try again in a moment.',
  suspended:
    'This account is suspended, so it cannot sign in. If you think this is a mistake, reply to any e-mail from Loris to reach the team.',
  invite_only:
    'Loris is open by invitation for now. Join the waitlist on the home page and we will e-mail you an invitation.',
  failed: 'Something went wrong while signing in with Google. Please try again.',
} as const

export type GoogleAuthError = keyof typeof googleAuthErrorMessages

export function googleAuthErrorMessage(code: string): string {
  return Object.hasOwn(googleAuthErrorMessages, code)
    ? googleAuthErrorMessages[code as GoogleAuthError]
    : googleAuthErrorMessages.failed
}
