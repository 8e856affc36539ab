import { isIPv6 } from 'node:net'
import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'

/** The caller's address; X-Forwarded-For is believed only behind a trusted proxy. */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim()
    if (forwarded) return forwarded
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    // app.request() in tests has no socket.
    return c.req.header('x-forwarded-for')?.split(',')[0]?.trim() ?? 'unknown'
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
