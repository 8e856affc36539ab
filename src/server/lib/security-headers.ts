import type { MiddlewareHandler } from 'hono'
import { secureHeaders } from 'hono/secure-headers'

/**
 * An API answer is someone's own data (their threads, their account): kept by no cache, neither a
 * shared proxy nor the browser's back-forward one, unless its route chose a policy (the public
 * impact catalogue, a file by its content's address, a stream's no-transform).
 */
export const noStoreUnlessChosen: MiddlewareHandler = async (c, next) => {
  await next()
  if (c.res.headers.has('cache-control')) return
  // On the answer's own headers: c.header() after the answer is made copies it into a new
  // Response, reading its body (compression.ts). A Response from fetch() has headers that cannot
  // change; it is copied then.
  try {
    c.res.headers.set('Cache-Control', 'no-store')
  } catch {
    c.header('Cache-Control', 'no-store')
  }
}

// The CSP the built app passes: no inline scripts, styles inline only as attributes/tags
// (Radix positions popovers with style attributes). Images only from the app itself: a remote image
// in a reply is a way to send data out, so markdown.tsx shows a placeholder and opens it in a new
// tab on request, and this policy stops any that slips through (decision 008).
export function securityHeaders() {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      mediaSrc: ["'self'", 'blob:'],
      connectSrc: ["'self'"],
      fontSrc: ["'self'", 'data:'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      manifestSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
    },
    crossOriginEmbedderPolicy: false,
    xFrameOptions: 'DENY',
    crossOriginResourcePolicy: 'same-origin',
    referrerPolicy: 'strict-origin-when-cross-origin',
    strictTransportSecurity: 'max-age=15552000; includeSubDomains',
    permissionsPolicy: { microphone: ['self'], camera: [], geolocation: [] },
  })
}
