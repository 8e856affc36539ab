// Links in replies (spec section 2): only http, https, irc, ircs, mailto and xmpp survive.
// Relative URLs and fragments are kept; anything else (javascript:, data:, ...) becomes ''.
const ALLOWED = /^(https?|ircs?|mailto|xmpp)$/i

export function safeUrl(url: string): string {
  const colon = url.indexOf(':')
  const questionMark = url.indexOf('?')
  const numberSign = url.indexOf('#')
  const slash = url.indexOf('/')
  // No protocol: a colon after a '/', '?' or '#' (or none at all) is part of a relative path.
  if (
    colon === -1 ||
    (slash !== -1 && colon > slash) ||
    (questionMark !== -1 && colon > questionMark) ||
    (numberSign !== -1 && colon > numberSign)
  )
    return url
  return ALLOWED.test(url.slice(0, colon)) ? url : ''
}
