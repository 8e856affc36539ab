import type { MiddlewareHandler } from 'hono'
import { AppError } from './app-error.ts'

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Refuses state-changing requests that a browser sent from another site (CSRF defence on top of
 * SameSite=Lax cookies). Requests without Origin (curl, server-to-server) are not browsers.
 */
export function sameOrigin(
  allowedOrigin: () => string,
  exempt: (path: string) => boolean,
): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE.has(c.req.method) || exempt(c.req.path)) return next()
    const origin = c.req.header('origin')
    const crossSite = c.req.header('sec-fetch-site') === 'cross-site'
    const ok = !crossSite && (!origin || origin === allowedOrigin() || origin === new URL(c.req.url).origin)
    if (!ok) throw new AppError('forbidden:origin', 'This request came from another site and was refused')
    return next()
  }
}
