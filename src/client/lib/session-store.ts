/**
 * This tab's session storage, or null where the browser refuses it (storage disabled, some private
 * modes throw on access): what is kept there across a sign-in is a convenience, never required.
 */
export function sessionStore(): Storage | null {
  try {
    return window.sessionStorage
  } catch {
    return null
  }
}
