// A visitor's 'Continue this conversation', kept while they sign in: the share page
// carries it out by itself once they have, after a password sign-in on the page as after Google's
// return to it (a new page load, decision 005). In session storage like the pre-auth draft
// (chat/lib/pending-draft.ts) rather than as a marker in the return address: a link anyone can
// craft must not copy a conversation into a signed-in reader's account without their click.
import { sessionStore as storage } from '#client/lib/session-store.ts'

export const PENDING_CONTINUE_KEY = 'pending-share-continue'
// As long as a Google sign-in may take (its flow cookie lasts 10 minutes).
const FRESH_MS = 10 * 60 * 1000

/** The share token the click was for, or null when none is stored, it is stale or corrupt. */
export function parsePendingContinue(raw: string | null, now: number): string | null {
  if (!raw) return null
  try {
    const value: unknown = JSON.parse(raw)
    if (!value || typeof value !== 'object') return null
    const { token, at } = value as Record<string, unknown>
    if (typeof token !== 'string' || !token || typeof at !== 'number') return null
    return now - at >= 0 && now - at < FRESH_MS ? token : null
  } catch {
    return null
  }
}

export function savePendingContinue(token: string, now = Date.now()) {
  storage()?.setItem(PENDING_CONTINUE_KEY, JSON.stringify({ token, at: now }))
}

/** Removes the stored click; true when it was for `token` and recent. */
export function takePendingContinue(token: string, now = Date.now()): boolean {
  const store = storage()
  if (!store) return false
  const raw = store.getItem(PENDING_CONTINUE_KEY)
  store.removeItem(PENDING_CONTINUE_KEY)
  return parsePendingContinue(raw, now) === token
}

export function dropPendingContinue() {
  storage()?.removeItem(PENDING_CONTINUE_KEY)
}
