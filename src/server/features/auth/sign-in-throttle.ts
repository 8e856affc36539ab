// Guess throttling for POST /api/login without a lockout an attacker can trigger (decision 010).
// Every attempt is counted up front (parallel guesses cannot slip past the check) and a right
// password gives its counts back, so only failures spend a budget.
import type { Context } from 'hono'
import { clientIp, networkOf } from '#server/lib/client-ip.ts'
import type { AppDeps } from '#server/lib/context.ts'
import { enforceRateLimit, refundRateLimit } from '#server/lib/rate-limit.ts'
import { trustedDeviceFor } from '#server/lib/trusted-device.ts'

const WINDOW = 15 * 60
const MESSAGE = (s: number) =>
  `Too many sign-in attempts. Please wait ${Math.ceil(s / 60)} minute${s > 60 ? 's' : ''} and try again, or reset your password.`

export const SIGN_IN_BUDGETS = {
  /** A browser the account signed in from before: its own budget, nothing else applies. */
  device: 10,
  /** One account from one network. */
  pair: 10,
  /** One network across all accounts (password spraying). */
  network: 50,
  /** One account from every browser it has never signed in from (a distributed attack). */
  account: 100,
} as const

export interface SignInAttempt {
  /** Call when the password was right: the attempt costs nothing. */
  succeeded(): Promise<void>
}

export function loginAccountKey(email: string): string {
  return `login:account:${email}`
}

/**
 * Counts this attempt against the budgets that apply and throws 429 when one is spent.
 * `userId` is the account the e-mail belongs to, if any (a device cookie only counts for it).
 */
export async function countSignInAttempt(
  c: Context,
  deps: AppDeps,
  email: string,
  userId: string | undefined,
): Promise<SignInAttempt> {
  const { db } = deps.database
  const device = userId ? trustedDeviceFor(c, deps, userId) : null
  const network = networkOf(clientIp(c, deps.env.TRUST_PROXY))
  const budgets: Array<[string, number]> = device
    ? [[`login:device:${device}`, SIGN_IN_BUDGETS.device]]
    : [
        [`login:pair:${email}:${network}`, SIGN_IN_BUDGETS.pair],
        [`login:network:${network}`, SIGN_IN_BUDGETS.network],
        [loginAccountKey(email), SIGN_IN_BUDGETS.account],
      ]
  const counted: string[] = []
  for (const [key, limit] of budgets) {
    counted.push(key)
    try {
      await enforceRateLimit(db, key, { limit, windowSeconds: WINDOW, message: MESSAGE })
    } catch (err) {
      // A refused attempt is not a guess: give back what this request counted so far.
      for (const k of counted) await refundRateLimit(db, k)
      throw err
    }
  }
  return {
    async succeeded() {
      for (const key of counted) await refundRateLimit(db, key)
    },
  }
}
