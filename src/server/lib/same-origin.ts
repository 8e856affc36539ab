// Which addresses the app answers and which pages may write to it: the Host rule (DNS rebinding)
// and the Origin rule (CSRF), both read from PUBLIC_URL alone. Edit with README's Security section.
import type { MiddlewareHandler } from 'hono'
import { type Env, publicOrigin } from '#server/env.ts'
import { AppError } from './app-error.ts'
import { forwardedFor } from './client-ip.ts'

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])
/** Names that always reach the machine they are typed on: a rebinding page can never be one. */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]']

/** The hosts (`name` or `name:port`) requests may name, and the origins pages may write from. */
export interface PublicAddresses {
  /** PUBLIC_URL's origin: what a refusal tells people to open. */
  origin: string
  hosts: Set<string>
  origins: Set<string>
  /** The port a Host without one means: PUBLIC_URL's scheme's default. */
  defaultPort: string
  /**
   * Outside production, a loopback name on any port is a host we answer (a test server on a free
   * port, a local proxy): no rebinding page can be on one. Origins stay the ones above.
   */
  anyLoopbackPort: boolean
}

/**
 * PUBLIC_URL's host and origin; outside production, or when PUBLIC_URL is itself on this machine,
 * also the loopback names on its port and on the listen port, so http://localhost:5000 keeps
 * working where the default PUBLIC_URL says 127.0.0.1.
 */
export function publicAddresses(env: Env): PublicAddresses {
  const origin = publicOrigin(env)
  const url = new URL(origin)
  const defaultPort = url.protocol === 'https:' ? '443' : '80'
  const hosts = new Set([hostKey(url.hostname, url.port, defaultPort)])
  const origins = new Set([origin])
  if (env.NODE_ENV !== 'production' || LOOPBACK.includes(url.hostname)) {
    const ports = new Set([url.port || defaultPort, String(env.PORT)])
    for (const name of LOOPBACK)
      for (const port of ports) {
        hosts.add(hostKey(name, port, defaultPort))
        origins.add(new URL(`http://${name}:${port}`).origin)
      }
  }
  return { origin, hosts, origins, defaultPort, anyLoopbackPort: env.NODE_ENV !== 'production' }
}

function hostKey(hostname: string, port: string, defaultPort: string): string {
  return port && port !== defaultPort ? `${hostname}:${port}` : hostname
}

/**
 * `host` (a Host or X-Forwarded-Host value) as publicAddresses writes it; null unless it is only a
 * name and a port (`a@loris.example` parses as loris.example, and is not one).
 */
function normalHost(host: string, defaultPort: string): string | null {
  const asked = host.toLowerCase()
  try {
    const url = new URL(`http://${asked}`)
    // The parser drops port 80, http's own.
    if (url.host !== asked && `${url.host}:80` !== asked) return null
    return hostKey(url.hostname, url.port, defaultPort)
  } catch {
    return null
  }
}

/**
 * Answers 421 to a request that names another host than PUBLIC_URL's. A page on a name its owner
 * rebinds to this machine's address (DNS rebinding) reaches us as a same-origin page of that name:
 * its Host gives it away. Behind trusted proxies (TRUST_PROXY) the host the outermost one was asked
 * for is its X-Forwarded-Host entry, read as X-Forwarded-For is; without that header, the Host
 * it passed on. `exempt` requests (a health probe, which names the node's own address) pass.
 */
export function publicHostOnly(
  addresses: PublicAddresses,
  trustedProxies: number,
  exempt: (method: string, path: string) => boolean,
): MiddlewareHandler {
  return async (c, next) => {
    if (exempt(c.req.method, c.req.path)) return next()
    const forwarded = forwardedFor(c.req.header('x-forwarded-host'), trustedProxies)
    const asked = forwarded ?? new URL(c.req.url).host
    const host = normalHost(asked, addresses.defaultPort)
    if (host && addresses.hosts.has(host)) return next()
    if (
      host &&
      addresses.anyLoopbackPort &&
      LOOPBACK.some((name) => host === name || host.startsWith(`${name}:`))
    )
      return next()
    throw new AppError(
      'misdirected:host',
      `This server answers at ${addresses.origin}, not at ${asked.slice(0, 100) || 'an unnamed host'}. ` +
        'Open Loris at its own address; if this is the address people use, set PUBLIC_URL to it.',
    )
  }
}

/**
 * Refuses state-changing requests that a browser sent from another site (CSRF defence on top of
 * SameSite=Lax cookies): their Origin must be PUBLIC_URL's (or, outside production, a loopback
 * one on its port). Requests without Origin (curl, server-to-server) are not browsers.
 */
export function sameOrigin(addresses: PublicAddresses, exempt: (path: string) => boolean): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE.has(c.req.method) || exempt(c.req.path)) return next()
    const origin = c.req.header('origin')
    const crossSite = c.req.header('sec-fetch-site') === 'cross-site'
    const ok = !crossSite && (!origin || addresses.origins.has(origin))
    if (!ok) throw new AppError('forbidden:origin', 'This request came from another site and was refused')
    return next()
  }
}
