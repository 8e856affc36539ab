import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query'
import { throwIfNotOk } from '#client/lib/api.ts'
import type { Session, User } from '#contract/user.ts'

export const userQueryKey = ['/api/user'] as const

// Spec section 9: user data is fresh for 30 s and refetched on window focus; null means visitor.
// It is read from GET /api/session (decision 018), which answers a visitor with `user: null`
// rather than GET /api/user's 401, which the browser would log as an error on every visit.
export const userQueryOptions = queryOptions({
  queryKey: userQueryKey,
  queryFn: async ({ signal }): Promise<User | null> => {
    const res = await fetch('/api/session', { credentials: 'include', signal })
    await throwIfNotOk(res)
    return ((await res.json()) as Session).user
  },
  staleTime: 30_000,
  refetchOnWindowFocus: true,
})

export function useUser() {
  const query = useQuery(userQueryOptions)
  return {
    user: query.data ?? null,
    isLoading: query.isLoading,
    error: query.error,
    isFetching: query.isFetching,
    refetch: query.refetch,
  }
}

/**
 * Who is signed in changed here (signed in, up or out, an e-mail or a tree count changed): a load
 * of the user on its way was asked before the change and answers for before it. Landing after
 * the change, it showed a person who had just signed out as still signed in, or the reverse, until
 * the next load. So it is cancelled first, as the thread's messages are (get-messages.ts).
 */
export async function setUser(queryClient: QueryClient, user: User | null) {
  await queryClient.cancelQueries({ queryKey: userQueryKey })
  queryClient.setQueryData(userQueryKey, user)
}

/**
 * This browser's half of a session ended (signed out, account deleted, password reset): a
 * visitor, and nothing of the person's left cached. `go` (a navigation) runs in the same tick as
 * the change, so the page left is never drawn for a visitor (/account would flash its 404). The
 * forgetting itself is forgetThePersonWhenChanged's, which sees the user become no one: one path
 * for a sign-out here and a session ended elsewhere.
 */
export async function endSessionHere(queryClient: QueryClient, go?: () => void) {
  await queryClient.cancelQueries({ queryKey: userQueryKey })
  go?.()
  queryClient.setQueryData(userQueryKey, null)
}

/** Every cached query but who is signed in, and what the forget listeners hold, goes. */
function forgetThePerson(queryClient: QueryClient) {
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== userQueryKey[0] })
  for (const forget of forgetters) forget()
}

/**
 * The person changed under this tab without it signing out (on a shared computer, A signed out
 * in another tab and B signed in; A's password reset ended every session): the user query, or a
 * setUser, now holds someone else, or no one. Nothing of A's may stay on screen for B (threads,
 * messages, share links, the composer's text and chosen thread), so A's goes as on a sign-out
 * here, in the same tick as the change, before anything renders for the new person. Installed
 * once, with the query client; returns the unsubscribe.
 */
export function forgetThePersonWhenChanged(queryClient: QueryClient): () => void {
  let shownId: string | null = null
  return queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return
    if (event.query.queryKey[0] !== userQueryKey[0]) return
    const id = (event.query.state.data as User | null | undefined)?.id ?? null
    // A visitor signing in brings nothing to forget (and keeps the draft they typed first).
    if (shownId !== null && id !== shownId) forgetThePerson(queryClient)
    shownId = id
  })
}

const forgetters = new Set<() => void>()

/**
 * What this browser holds of the person outside the query cache (the composer's text, the file
 * chosen for the next message, the thread chosen) is forgotten with it when their session ends
 * here or someone else's begins: on a shared computer the next visitor must not find it, nor
 * send it from their own account.
 */
export function forgetOnSessionEnd(forget: () => void): () => void {
  forgetters.add(forget)
  return () => forgetters.delete(forget)
}
