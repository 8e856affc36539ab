import { isIPv6 } from 'node:net'
import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'

/**
 * The address X-Forwarded-For gives behind `hops` trusted proxies. Each proxy appends the address
 * it was reached from, so the entry `hops` from the end is the one the outermost trusted proxy
 * saw; anything before it was written by the client and is not believed (taking the first entry
 * let anyone pick a new address per request, and so a new budget for every throttle keyed by it).
 */
export function forwardedFor(header: string | undefined, hops: number): string | undefined {
  if (!header || hops < 1) return undefined
  const entries = header.split(',').map((e) => e.trim())
  return entries[Math.max(0, entries.length - hops)] || undefined
}

/** The caller's address; X-Forwarded-For is believed only behind trusted proxies (TRUST_PROXY). */
export function clientIp(c: Context, trustedProxies: number): string {
  const forwarded = forwardedFor(c.req.header('x-forwarded-for'), trustedProxies)
  if (forwarded) return forwarded
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    // app.request() in tests has no socket: the header stands for one, read as behind one proxy.
    return forwardedFor(c.req.header('x-forwarded-for'), 1) ?? 'unknown'
  }
}

/**
 * The network an address belongs to, for throttles an attacker could dodge by hopping between
 * neighbouring addresses: IPv4 as is (NAT already pools a household), IPv6 by its /64, the
 * block one subscriber is usually given.
 */
export function networkOf(ip: string): string {
  if (!isIPv6(ip)) return ip
  const v4mapped = ip.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i)
  if (v4mapped?.[1]) return v4mapped[1]
  const [head = '', tail = ''] = ip.split('::')
  const h = head ? head.split(':') : []
  const t = ip.includes('::') ? (tail ? tail.split(':') : []) : []
  const groups = [...h, ...Array(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t]
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`
}
