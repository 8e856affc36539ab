import * as client from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type OidcStandIn, startOidcStandIn } from './oidc.ts'

// The real openid-client against the stand-in, configured the way the app configures it for tests.
const redirectUri = 'http://127.0.0.1:5173/api/auth/google/callback'
let op: OidcStandIn
let config: client.Configuration

const discover = (auth?: client.ClientAuth, secret?: string) =>
  client.discovery(new URL(op.issuer), op.clientId, secret ?? op.clientSecret, auth, {
    execute: [client.allowInsecureRequests],
  })

beforeAll(async () => {
  op = await startOidcStandIn()
  config = await discover()
})

afterAll(async () => {
  await op?.close()
})

/** Runs the browser leg: builds the authorization URL and follows it to the app's callback URL. */
async function authorize(cfg = config, params: Record<string, string> = {}) {
  const pkceCodeVerifier = client.randomPKCECodeVerifier()
  const expectedState = client.randomState()
  const expectedNonce = client.randomNonce()
  const url = client.buildAuthorizationUrl(cfg, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
    code_challenge_method: 'S256',
    state: expectedState,
    nonce: expectedNonce,
    ...params,
  })
  const res = await fetch(url, { redirect: 'manual' })
  const location = res.headers.get('location')
  const callbackUrl = new URL(location ?? 'about:blank')
  const checks = { pkceCodeVerifier, expectedState, expectedNonce }
  return { res, callbackUrl, checks, grant: () => client.authorizationCodeGrant(cfg, callbackUrl, checks) }
}

/** The rejection's message with its cause's, where openid-client keeps the specific check that failed. */
async function failure(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e as Error,
  )
  return `${err.message} / ${(err.cause as Error | undefined)?.message ?? ''}`
}

describe('OIDC stand-in', () => {
  it('is discovered with PKCE support', () => {
    expect(config.serverMetadata().issuer).toBe(op.issuer)
    expect(config.serverMetadata().supportsPKCE()).toBe(true)
  })

  it('signs in the chosen user with PKCE, state and nonce (client_secret_post)', async () => {
    op.setNextUser({
      sub: '1234567890',
      email: 'grace@example.com',
      email_verified: true,
      name: 'Grace Hopper',
    })
    const { callbackUrl, grant } = await authorize()
    expect(callbackUrl.origin + callbackUrl.pathname).toBe(redirectUri)
    const tokens = await grant()
    expect(tokens.claims()).toMatchObject({
      iss: op.issuer,
      aud: op.clientId,
      sub: '1234567890',
      email: 'grace@example.com',
      email_verified: true,
      name: 'Grace Hopper',
    })
    const info = await client.fetchUserInfo(config, tokens.access_token, '1234567890')
    expect(info).toMatchObject({ email: 'grace@example.com', email_verified: true })
  })

  it('accepts client_secret_basic and refuses a wrong secret', async () => {
    const basic = await discover(client.ClientSecretBasic(op.clientSecret))
    await expect((await authorize(basic)).grant()).resolves.toHaveProperty('access_token')
    const wrong = await discover(client.ClientSecretBasic('not-the-secret'), 'not-the-secret')
    // 401 with a Basic challenge (RFC 6749 5.2), which openid-client raises as a WWW-Authenticate error.
    await expect((await authorize(wrong)).grant()).rejects.toMatchObject({ status: 401 })
  })

  it('checks the PKCE verifier and redirect_uri, and makes codes single-use', async () => {
    const first = await authorize()
    const badVerifier = { ...first.checks, pkceCodeVerifier: client.randomPKCECodeVerifier() }
    await expect(client.authorizationCodeGrant(config, first.callbackUrl, badVerifier)).rejects.toMatchObject(
      {
        error: 'invalid_grant',
      },
    )
    await expect(first.grant()).rejects.toMatchObject({ error: 'invalid_grant' })
    const misdirected = await authorize()
    const swapped = client.genericGrantRequest(config, 'authorization_code', {
      code: misdirected.callbackUrl.searchParams.get('code')!,
      redirect_uri: 'http://127.0.0.1:5173/elsewhere',
      code_verifier: misdirected.checks.pkceCodeVerifier,
    })
    await expect(swapped).rejects.toMatchObject({ error: 'invalid_grant' })
    const second = await authorize()
    await second.grant()
    await expect(second.grant()).rejects.toMatchObject({ error: 'invalid_grant' })
  })

  it.each([
    ['wrong-nonce', /"nonce" claim/],
    ['expired', /"exp" \(expiration time\)/],
    ['wrong-audience', /"aud" \(audience\)/],
  ] as const)('%s makes the code grant reject', async (b, why) => {
    op.setNextBehaviour(b)
    expect(await failure((await authorize()).grant())).toMatch(why)
    // One authorization only: the next sign-in works again.
    await expect((await authorize()).grant()).resolves.toHaveProperty('access_token')
  })

  it('bad-signature is caught once non-repudiation checks are on', async () => {
    // openid-client trusts TLS for ID tokens from the token endpoint: no signature check by default
    // (allowed by OIDC Core 3.1.3.7), so an app that wants one must opt in.
    op.setNextBehaviour('bad-signature')
    await expect((await authorize()).grant()).resolves.toHaveProperty('access_token')
    const strict = await discover()
    client.enableNonRepudiationChecks(strict)
    await expect((await authorize(strict)).grant()).resolves.toHaveProperty('access_token')
    op.setNextBehaviour('bad-signature')
    expect(await failure((await authorize(strict)).grant())).toMatch(/JWT signature verification failed/)
  })

  it('deny sends access_denied with the state back to the callback', async () => {
    op.setNextBehaviour('deny')
    const { callbackUrl, checks, grant } = await authorize()
    expect(callbackUrl.searchParams.get('error')).toBe('access_denied')
    expect(callbackUrl.searchParams.get('state')).toBe(checks.expectedState)
    expect(callbackUrl.searchParams.has('code')).toBe(false)
    await expect(grant()).rejects.toBeInstanceOf(client.AuthorizationResponseError)
  })

  it('refuses requests without S256 PKCE, and never redirects for an unknown client', async () => {
    const plain = await authorize(config, { code_challenge_method: 'plain' })
    expect(plain.callbackUrl.searchParams.get('error')).toBe('invalid_request')
    const url = client.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid' })
    url.searchParams.set('client_id', 'someone-else')
    const res = await fetch(url, { redirect: 'manual' })
    expect(res.status).toBe(400)
    expect(res.headers.get('location')).toBeNull()
  })
})
