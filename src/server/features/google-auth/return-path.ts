// Where a Google sign-in returns the person: the page they started from, so a visitor who signs in
// to continue a shared conversation lands back on it. `next` arrives in a URL anyone can craft,
// so only paths of this app's own shapes are kept (no open redirect: never an absolute URL,
// '//host', '/\host' or anything with a query); everything else returns to the chat screen.
import { shareTokenParam } from '#contract/sharing.ts'
import { threadIdParam } from '#contract/threads.ts'

export const DEFAULT_RETURN_PATH = '/chat'

const CHAT = /^\/chat(?:\/new)?$/
const CHAT_THREAD = /^\/chat\/([^/]+)$/
const SHARE = /^\/share\/([^/]+)$/
/** The operator's console, which asks a visitor to sign in first. */
const ADMIN = /^\/admin$/

/** `next` when it is one of the allowed shapes, else the chat screen. */
export function returnPathFrom(next: string | undefined): string {
  if (!next) return DEFAULT_RETURN_PATH
  if (CHAT.test(next) || ADMIN.test(next)) return next
  const thread = CHAT_THREAD.exec(next)?.[1]
  if (thread && threadIdParam.safeParse({ id: thread }).success) return next
  const token = SHARE.exec(next)?.[1]
  if (token && shareTokenParam.safeParse({ token }).success) return next
  return DEFAULT_RETURN_PATH
}

/** The return path with one query parameter; allowed paths carry no query of their own. */
export const withParam = (path: string, name: string, value: string) =>
  `${path}?${new URLSearchParams({ [name]: value })}`
