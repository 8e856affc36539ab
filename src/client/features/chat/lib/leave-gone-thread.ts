// A thread deleted in another tab answers 404 `not_found:thread` to its messages and to a send:
// it leaves the list and the cache with a notice, and the chat falls back to Default
// (useThreadSelection picks it once the selection is cleared).
//
// A 404 also answers a thread that is not the person's who asks: on a shared computer, A signed
// out and B signed in, in another tab or in this one, while this tab's address still named A's
// thread. That is no deletion: B is never told of A's thread. So who is signed in is read again
// first (a change is then handled by forgetThePersonWhenChanged, which clears all of A's), and
// the notice is only for a thread this person's list here held.
import type { QueryClient } from '@tanstack/react-query'
import { forgetGoneThread, isListedThread } from '#client/app/api/get-threads.ts'
import { userQueryKey, userQueryOptions } from '#client/app/api/get-user.ts'
import type { User } from '#contract/user.ts'
import { clearSelection, getSelection } from '../hooks/use-thread-selection.ts'

const shownUserId = (queryClient: QueryClient) =>
  queryClient.getQueryData<User | null>(userQueryKey)?.id ?? null

export async function leaveGoneThread(queryClient: QueryClient, id: string): Promise<void> {
  const asker = shownUserId(queryClient)
  const listed = isListedThread(queryClient, id)
  // A read that failed (offline) says nothing of a change: the person shown stands.
  const now = await queryClient
    .fetchQuery({ ...userQueryOptions, staleTime: 0 })
    .then((user) => user?.id ?? null)
    .catch(() => asker)
  if (now !== asker) return
  forgetGoneThread(queryClient, id, { notice: listed })
  const shown = getSelection()
  if (shown.kind === 'thread' && shown.id === id) clearSelection()
}
