// GET /metrics for Prometheus (docs/decisions/061). Answered to a scraper on this machine
// (a loopback socket with no proxy's forwarding headers) and to a bearer of METRICS_TOKEN;
// anyone else finds no such route, or a 401 when a token is configured.
import { timingSafeEqual } from 'node:crypto'
import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'
import type { Env } from '#server/env.ts'
import { errorBody } from '#server/lib/on-error.ts'
import { METRICS_CONTENT_TYPE, metricsText } from './metrics.ts'

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/
// A reverse proxy on this machine connects from loopback too: what it forwards is not local.
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip']

function fromLoopback(c: Context): boolean {
  if (FORWARDING_HEADERS.some((h) => c.req.header(h) !== undefined)) return false
  try {
    return LOOPBACK.test(getConnInfo(c).remote.address ?? '')
  } catch {
    // No socket (app.request() in tests): nothing shows where it came from.
    return false
  }
}

function bearerMatches(c: Context, token: string): boolean {
  const given = Buffer.from(c.req.header('authorization')?.match(/^Bearer (.+)$/i)?.[1] ?? '')
  const wanted = Buffer.from(token)
  return given.length === wanted.length && timingSafeEqual(given, wanted)
}

export function metricsEndpoint(env: Pick<Env, 'METRICS_TOKEN'>) {
  return async (c: Context) => {
    const token = env.METRICS_TOKEN
    if (!(token && bearerMatches(c, token)) && !fromLoopback(c)) {
      if (!token) return c.json(errorBody('not_found:route', `No route ${c.req.method} ${c.req.path}`), 404)
      return c.json(
        errorBody('unauthorized:metrics', 'Send METRICS_TOKEN as a bearer token to read /metrics.'),
        401,
        {
          'www-authenticate': 'Bearer',
        },
      )
    }
    return c.body(await metricsText(), 200, {
      'content-type': METRICS_CONTENT_TYPE,
      'cache-control': 'no-store',
    })
  }
}
