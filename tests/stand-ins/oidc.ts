// Loopback OpenID Connect provider standing in for Google sign-in: edit when the app's sign-in flow needs
// another endpoint or claim. Authorization code flow with PKCE only (RFC 6749, RFC 7636, OIDC Core 1.0).
import { createHash, generateKeyPair, type KeyObject, randomBytes, sign, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { promisify } from 'node:util'
import { closeServer, listen, readBody } from './http-helpers.ts'

export interface OidcUser {
  sub: string
  email: string
  email_verified: boolean
  name?: string
}

export type OidcBehaviour = 'normal' | 'deny' | 'wrong-nonce' | 'expired' | 'wrong-audience' | 'bad-signature'

export interface OidcStandIn {
  issuer: string
  clientId: string
  clientSecret: string
  /** The Google account that this and later authorizations sign in as, until set again. */
  setNextUser(u: OidcUser): void
  /** Applies to the next authorization only, then falls back to 'normal'. */
  setNextBehaviour(b: OidcBehaviour): void
  close(): Promise<void>
}

interface Grant {
  clientId: string
  redirectUri: string
  codeChallenge: string
  nonce: string | undefined
  scope: string
  user: OidcUser
  behaviour: OidcBehaviour
  expiresAt: number
}

const generateRsa = promisify(generateKeyPair)
const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url')
const token = () => randomBytes(32).toString('base64url')
const now = () => Math.floor(Date.now() / 1000)
const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]'])

function signJwt(claims: Record<string, unknown>, key: KeyObject, kid: string): string {
  const header = { alg: 'RS256', kid, typ: 'JWT' }
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`
  return `${input}.${b64url(sign('sha256', Buffer.from(input), key))}`
}

// OIDC Core 3.1.3.6: left half of the SHA-256 of the access token, as Google sends it.
const atHash = (accessToken: string) =>
  b64url(createHash('sha256').update(accessToken).digest().subarray(0, 16))

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

// RFC 6749 2.3.1: Basic credentials are form-urlencoded before base64; malformed ones simply fail to match.
function formDecode(s: string): string {
  try {
    return decodeURIComponent(s.replaceAll('+', ' '))
  } catch {
    return ''
  }
}

/** Environment that signs in with Google through this stand-in. */
export function googleEnv(op: OidcStandIn): Record<string, string> {
  return {
    GOOGLE_CLIENT_ID: op.clientId,
    GOOGLE_CLIENT_SECRET: op.clientSecret,
    GOOGLE_ISSUER_URL: op.issuer,
  }
}

export async function startOidcStandIn(
  opts: { port?: number; clientId?: string; clientSecret?: string; redirectUris?: string[] } = {},
): Promise<OidcStandIn> {
  const clientId = opts.clientId ?? 'loris-test.apps.googleusercontent.com'
  const clientSecret = opts.clientSecret ?? 'GOCSPX-standin-secret'
  const kid = b64url(randomBytes(8))
  const { privateKey, publicKey } = await generateRsa('rsa', { modulusLength: 2048 })
  let rogueKey: KeyObject | undefined
  let user: OidcUser = {
    sub: '100000000000000000001',
    email: 'test.user@example.com',
    email_verified: true,
    name: 'Test User',
  }
  let nextBehaviour: OidcBehaviour = 'normal'
  const codes = new Map<string, Grant>()
  const accessTokens = new Map<string, { user: OidcUser; expiresAt: number }>()
  let issuer = ''

  const json = (res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body))

  // Unknown clients and unregistered redirect URIs get an error page, never a redirect (RFC 6749 4.1.2.1).
  const redirectAllowed = (uri: string) => {
    if (opts.redirectUris) return opts.redirectUris.includes(uri)
    try {
      const u = new URL(uri)
      return (u.protocol === 'http:' || u.protocol === 'https:') && loopbackHosts.has(u.hostname) && !u.hash
    } catch {
      return false
    }
  }

  function authorize(res: ServerResponse, q: URLSearchParams) {
    const redirectUri = q.get('redirect_uri') ?? ''
    if (q.get('client_id') !== clientId) {
      return res.writeHead(400, { 'content-type': 'text/plain' }).end('Error 401: invalid_client')
    }
    if (!redirectAllowed(redirectUri)) {
      return res.writeHead(400, { 'content-type': 'text/plain' }).end('Error 400: redirect_uri_mismatch')
    }
    const back = (params: Record<string, string>) => {
      const target = new URL(redirectUri)
      for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v)
      const state = q.get('state')
      if (state) target.searchParams.set('state', state)
      res.writeHead(302, { location: target.href }).end()
    }
    const behaviour = nextBehaviour
    nextBehaviour = 'normal'
    if (q.get('response_type') !== 'code') return back({ error: 'unsupported_response_type' })
    const scope = q.get('scope') ?? ''
    if (!scope.split(' ').includes('openid')) return back({ error: 'invalid_scope' })
    const codeChallenge = q.get('code_challenge') ?? ''
    if (q.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(codeChallenge)) {
      return back({
        error: 'invalid_request',
        error_description: 'PKCE with code_challenge_method=S256 is required',
      })
    }
    if (behaviour === 'deny') return back({ error: 'access_denied' })
    const code = `4/${token()}`
    codes.set(code, {
      clientId,
      redirectUri,
      codeChallenge,
      nonce: q.get('nonce') ?? undefined,
      scope,
      user,
      behaviour,
      expiresAt: Date.now() + 10 * 60_000,
    })
    back({ code, scope })
  }

  async function tokenEndpoint(req: IncomingMessage, res: ServerResponse) {
    const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' }
    const fail = (status: number, error: string, description: string, extra: Record<string, string> = {}) =>
      json(res, status, { error, error_description: description }, { ...noStore, ...extra })
    const form = new URLSearchParams((await readBody(req, 100_000)).toString('utf8'))
    for (const key of new Set(form.keys())) {
      if (form.getAll(key).length > 1) return fail(400, 'invalid_request', `${key} given more than once`)
    }

    // client_secret_basic or client_secret_post, but not both at once (RFC 6749 2.3).
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '')
    let id = form.get('client_id') ?? ''
    let secret = form.get('client_secret') ?? ''
    if (basic) {
      if (form.has('client_secret')) {
        return fail(400, 'invalid_request', 'more than one client authentication')
      }
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8')
      const colon = decoded.indexOf(':')
      if (colon < 0) return fail(401, 'invalid_client', 'malformed Basic credentials')
      id = formDecode(decoded.slice(0, colon))
      secret = formDecode(decoded.slice(colon + 1))
    }
    if (id !== clientId || !sameSecret(secret, clientSecret)) {
      const challenge: Record<string, string> = basic
        ? { 'www-authenticate': 'Basic realm="oidc-stand-in"' }
        : {}
      return fail(401, 'invalid_client', 'client authentication failed', challenge)
    }

    if (form.get('grant_type') !== 'authorization_code') {
      return fail(400, 'unsupported_grant_type', 'only authorization_code is supported')
    }
    const code = form.get('code') ?? ''
    const grant = codes.get(code)
    codes.delete(code) // single use, even when the exchange fails below
    if (!grant || grant.expiresAt < Date.now() || grant.clientId !== id) {
      return fail(400, 'invalid_grant', 'code is invalid, expired or already used')
    }
    if (form.get('redirect_uri') !== grant.redirectUri) {
      return fail(400, 'invalid_grant', 'redirect_uri mismatch')
    }
    const verifier = form.get('code_verifier') ?? ''
    const challenge = b64url(createHash('sha256').update(verifier).digest())
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || challenge !== grant.codeChallenge) {
      return fail(400, 'invalid_grant', 'PKCE verification failed')
    }

    const accessToken = `ya29.${token()}`
    accessTokens.set(accessToken, { user: grant.user, expiresAt: Date.now() + 3600_000 })
    const t = now()
    const { behaviour } = grant
    const claims = {
      iss: issuer,
      azp: clientId,
      aud: behaviour === 'wrong-audience' ? 'someone-else.apps.googleusercontent.com' : clientId,
      sub: grant.user.sub,
      email: grant.user.email,
      email_verified: grant.user.email_verified,
      at_hash: atHash(accessToken),
      ...(grant.user.name ? { name: grant.user.name } : {}),
      ...(behaviour === 'wrong-nonce' ? { nonce: token() } : grant.nonce ? { nonce: grant.nonce } : {}),
      iat: behaviour === 'expired' ? t - 7200 : t,
      exp: behaviour === 'expired' ? t - 3600 : t + 3600,
    }
    // A forger's key under our kid: the JWKS lookup succeeds and only the signature check can catch it.
    let signingKey = privateKey
    if (behaviour === 'bad-signature') {
      rogueKey ??= (await generateRsa('rsa', { modulusLength: 2048 })).privateKey
      signingKey = rogueKey
    }
    const idToken = signJwt(claims, signingKey, kid)
    json(
      res,
      200,
      {
        access_token: accessToken,
        expires_in: 3599,
        scope: grant.scope,
        token_type: 'Bearer',
        id_token: idToken,
      },
      noStore,
    )
  }

  function userinfo(req: IncomingMessage, res: ServerResponse) {
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? ''
    const found = accessTokens.get(bearer)
    if (!found || found.expiresAt < Date.now()) {
      return json(
        res,
        401,
        { error: 'invalid_token' },
        { 'www-authenticate': 'Bearer error="invalid_token"' },
      )
    }
    const { sub, email, email_verified, name } = found.user
    json(res, 200, { sub, email, email_verified, ...(name ? { name } : {}) })
  }

  const server = createServer((req, res) => {
    const target = new URL(req.url ?? '/', issuer)
    const route = `${req.method} ${target.pathname}`
    const work = async () => {
      switch (route) {
        case 'GET /.well-known/openid-configuration':
          return json(res, 200, {
            issuer,
            authorization_endpoint: `${issuer}/authorize`,
            token_endpoint: `${issuer}/token`,
            userinfo_endpoint: `${issuer}/userinfo`,
            jwks_uri: `${issuer}/jwks`,
            response_types_supported: ['code'],
            grant_types_supported: ['authorization_code'],
            subject_types_supported: ['public'],
            id_token_signing_alg_values_supported: ['RS256'],
            scopes_supported: ['openid', 'email', 'profile'],
            token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
            claims_supported: ['aud', 'email', 'email_verified', 'exp', 'iat', 'iss', 'name', 'sub', 'nonce'],
            code_challenge_methods_supported: ['S256'],
          })
        case 'GET /jwks':
          return json(res, 200, {
            keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }],
          })
        case 'GET /authorize':
          return authorize(res, target.searchParams)
        case 'POST /token':
          return tokenEndpoint(req, res)
        case 'GET /userinfo':
          return userinfo(req, res)
        default:
          return json(res, 404, { error: 'not_found' })
      }
    }
    work().catch((err: unknown) => {
      console.error('OIDC stand-in failed:', err)
      if (!res.headersSent) json(res, 500, { error: 'server_error' })
      else res.end()
    })
  })
  issuer = await listen(server, opts.port ?? 0, '127.0.0.1')

  return {
    issuer,
    clientId,
    clientSecret,
    setNextUser: (u) => {
      user = { ...u }
    },
    setNextBehaviour: (b) => {
      nextBehaviour = b
    },
    close: () => closeServer(server),
  }
}
