import { Hono } from 'hono'
import * as client from 'openid-client'
import type { GoogleAuthError } from '#contract/account.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { claimInviteFor } from '#server/lib/invites.ts'
import { startSession } from '#server/lib/session.ts'
import {
  clearFlowCookie,
  FLOW_TTL_SECONDS,
  openFlow,
  readFlowCookie,
  sealFlow,
  writeFlowCookie,
} from './flow-cookie.ts'
import { googleSettings, oidcConfiguration } from './oidc-config.ts'
import { dropPreviousSession } from './queries.ts'
import { resolveGoogleAccount } from './resolve-account.ts'
import { DEFAULT_RETURN_PATH, returnPathFrom, withParam } from './return-path.ts'

// Browser navigations, not API calls: every outcome is a redirect to the page the sign-in began
// on (`?next=`, the chat screen unless it is an allowed path), which strips auth=google (spec
// section 2) or shows the auth_error in a toast with the sign-in dialog.
const signedIn = (returnTo: string) => withParam(returnTo, 'auth', 'google')
const failedWith = (code: GoogleAuthError, returnTo = DEFAULT_RETURN_PATH) =>
  withParam(returnTo, 'auth_error', code)

/** Google sign-in (OpenID Connect authorization code flow with PKCE, state and nonce), at /auth. */
export function googleAuthRoutes(deps: AppDeps) {
  const secure = deps.env.PUBLIC_URL?.startsWith('https://') ?? false
  const now = () => deps.now?.() ?? new Date()

  return new Hono<AppEnv>()
    .use(async (c, next) => {
      await next()
      // Whatever broke (the database, a bug), the person lands on the chat screen with a
      // message rather than a JSON error page.
      if (c.error) {
        c.get('log').error({ err: c.error }, 'Google sign-in failed unexpectedly')
        c.res = new Response(null, { status: 302, headers: { Location: failedWith('failed') } })
      }
      c.header('Cache-Control', 'no-store')
    })
    .get('/google', async (c) => {
      const returnTo = returnPathFrom(c.req.query('next'))
      const settings = googleSettings(deps.env)
      if (!settings) return c.redirect(failedWith('not_configured', returnTo), 302)
      let config: client.Configuration
      try {
        config = await oidcConfiguration(settings)
      } catch (err) {
        c.get('log').error({ err, issuer: settings.issuer.href }, 'Google discovery failed')
        return c.redirect(failedWith('unavailable', returnTo), 302)
      }
      const verifier = client.randomPKCECodeVerifier()
      const state = client.randomState()
      const nonce = client.randomNonce()
      const expiresAt = now().getTime() + FLOW_TTL_SECONDS * 1000
      writeFlowCookie(c, sealFlow(deps.secret, { state, nonce, verifier, expiresAt, returnTo }), secure)
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri,
        scope: 'openid email profile',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        // Shared computers: let the person pick which Google account signs in.
        prompt: 'select_account',
      })
      return c.redirect(url.href, 302)
    })
    .get('/google/callback', async (c) => {
      const log = c.get('log')
      const flow = openFlow(deps.secret, readFlowCookie(c), now())
      clearFlowCookie(c, secure)
      // Checked again: a cookie sealed before the allow-list changed may hold an older shape.
      const returnTo = returnPathFrom(flow?.returnTo)
      const failed = (code: GoogleAuthError) => c.redirect(failedWith(code, returnTo), 302)
      const query = c.req.query()
      if (query.error) {
        if (query.error !== 'access_denied') log.warn({ error: query.error }, 'Google answered an error')
        return failed(query.error === 'access_denied' ? 'denied' : 'failed')
      }
      if (!flow || query.state !== flow.state) return failed('state')
      const settings = googleSettings(deps.env)
      if (!settings) return failed('not_configured')

      let claims: client.IDToken | undefined
      try {
        const config = await oidcConfiguration(settings)
        // The URL Google redirected to, rebuilt on our public origin (a proxy may sit in front).
        const currentUrl = new URL(settings.redirectUri)
        currentUrl.search = new URL(c.req.url).search
        const tokens = await client.authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: flow.verifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        })
        claims = tokens.claims()
      } catch (err) {
        log.warn({ err }, 'Google sign-in could not be verified')
        return failed('verification')
      }
      if (!claims) return failed('verification')

      const result = await resolveGoogleAccount(
        deps.database.db,
        {
          sub: claims.sub,
          email: typeof claims.email === 'string' ? claims.email : undefined,
          emailVerified: claims.email_verified === true,
        },
        // Invite-only: a new account needs an open invitation for Google's verified address.
        deps.env.SIGNUP === 'invite' ? (email) => claimInviteFor(deps.database.db, email) : undefined,
      )
      if (!result.ok) {
        log.info({ reason: result.error }, 'Google sign-in refused')
        return failed(result.error)
      }
      if (result.user.suspendedAt) {
        log.info({ userId: result.user.id }, 'Google sign-in refused: account suspended')
        return failed('suspended')
      }
      // A new identity gets a new session; whoever was signed in here before is signed out.
      await dropPreviousSession(c, deps)
      await startSession(c, deps, result.user)
      log.info({ userId: result.user.id, outcome: result.outcome }, 'signed in with Google')
      return c.redirect(signedIn(returnTo), 302)
    })
}
