// Google as an OpenID Connect provider, through openid-client (conventions habit 7: the real SDK
// behind one interface). Tests point GOOGLE_ISSUER_URL at the loopback stand-in.
import * as client from 'openid-client'
import { type Env, publicOrigin } from '#server/env.ts'

export interface GoogleSettings {
  issuer: URL
  clientId: string
  clientSecret: string
  redirectUri: string
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** The settings when Google sign-in is configured, else null (GET /api/config says the same). */
export function googleSettings(env: Env): GoogleSettings | null {
  if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) return null
  return {
    issuer: new URL(env.GOOGLE_ISSUER_URL),
    clientId: env.GOOGLE_CLIENT_ID,
    clientSecret: env.GOOGLE_CLIENT_SECRET,
    redirectUri: `${publicOrigin(env)}/auth/google/callback`,
  }
}

// One discovery per issuer and client per process; a failed one is forgotten so the next
// sign-in retries instead of failing until a restart.
const discovered = new Map<string, Promise<client.Configuration>>()

export function oidcConfiguration(s: GoogleSettings): Promise<client.Configuration> {
  const key = `${s.issuer.href} ${s.clientId} ${s.clientSecret}`
  let found = discovered.get(key)
  if (!found) {
    found = discover(s)
    found.catch(() => discovered.delete(key))
    discovered.set(key, found)
  }
  return found
}

async function discover(s: GoogleSettings): Promise<client.Configuration> {
  const insecure = s.issuer.protocol === 'http:'
  // Plain HTTP only ever reaches the loopback stand-in; a real issuer must use TLS.
  if (insecure && !LOOPBACK.has(s.issuer.hostname)) {
    throw new Error(`GOOGLE_ISSUER_URL must use https (got ${s.issuer.href})`)
  }
  const config = await client.discovery(
    s.issuer,
    s.clientId,
    s.clientSecret,
    client.ClientSecretPost(s.clientSecret),
    insecure ? { execute: [client.allowInsecureRequests], timeout: 10 } : { timeout: 10 },
  )
  // openid-client trusts TLS for ID tokens from the token endpoint (OIDC Core 3.1.3.7); we also
  // check their signature against the provider's JWKS, as the issue asks.
  client.enableNonRepudiationChecks(config)
  return config
}
