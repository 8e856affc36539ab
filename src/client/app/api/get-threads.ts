import {
  type InfiniteData,
  infiniteQueryOptions,
  type QueryClient,
  useInfiniteQuery,
} from '@tanstack/react-query'
import { toast } from '#client/hooks/use-toast.ts'
import { ApiError, throwIfNotOk } from '#client/lib/api.ts'
import { THREADS_PAGE_SIZE } from '#contract/page-sizes.ts'
import type { Thread, ThreadPage } from '#contract/threads.ts'

export const threadsQueryKey = ['/api/threads'] as const

/** The cached pages of the thread list: Default first, then the most recent. */
export type ThreadPages = InfiniteData<ThreadPage, string | null>

async function fetchThreadPage(cursor: string | null, signal: AbortSignal): Promise<ThreadPage> {
  const params = new URLSearchParams({ limit: String(THREADS_PAGE_SIZE) })
  if (cursor) params.set('cursor', cursor)
  const res = await fetch(`/api/threads?${params}`, { credentials: 'include', signal })
  // An ApiError carries the status: a 401 turns the page to the visitor's view (lib/query-client.ts).
  await throwIfNotOk(res)
  return (await res.json()) as ThreadPage
}

const loadedThreads = (data: ThreadPages): Thread[] => data.pages.flatMap((page) => page.items)

// Spec section 9: threads are fresh for 60 s; fetched only for a signed-in user.
export const threadsQueryOptions = infiniteQueryOptions({
  queryKey: threadsQueryKey,
  queryFn: ({ signal, pageParam }) => fetchThreadPage(pageParam, signal),
  initialPageParam: null as string | null,
  getNextPageParam: (last) => last.nextCursor,
  staleTime: 60_000,
  // A thread deleted or added in another tab shows when the person comes back to this one.
  refetchOnWindowFocus: true,
})

/** Changes every loaded thread through `update` (each page's list in turn). */
export function updateThreadList(queryClient: QueryClient, update: (threads: Thread[]) => Thread[]) {
  queryClient.setQueryData<ThreadPages>(threadsQueryKey, (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, items: update(page.items) })) } : data,
  )
}

/** The server no longer has this thread (deleted in another tab): a 404 `not_found:thread`. */
export function isThreadGone(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'not_found:thread'
}

/** Whether the loaded list holds the thread: this tab showed it as the person's own. */
export function isListedThread(queryClient: QueryClient, id: string): boolean {
  const data = queryClient.getQueryData<ThreadPages>(threadsQueryKey)
  return data?.pages.some((page) => page.items.some((t) => t.id === id)) ?? false
}

/**
 * A thread deleted elsewhere leaves this tab's list and cache, with a short notice rather than
 * an error whose Try again could only fail again. The chat then falls back to Default. Without
 * `notice`, quietly: the thread was never in this person's list here (an address naming another
 * person's thread), so there is no deletion to tell of.
 */
export function forgetGoneThread(queryClient: QueryClient, id: string, { notice = true } = {}) {
  updateThreadList(queryClient, (list) => list.filter((t) => t.id !== id))
  queryClient.removeQueries({ queryKey: ['/api/messages', id] })
  void queryClient.invalidateQueries({ queryKey: threadsQueryKey })
  if (notice)
    toast({ title: 'Thread no longer exists', description: 'It was deleted in another tab or window.' })
}

/** Shows a thread just created at once (the refetch that follows brings the stored one). */
export function addThreadToList(queryClient: QueryClient, thread: Thread) {
  queryClient.setQueryData<ThreadPages>(threadsQueryKey, (data) => {
    if (!data || data.pages.some((page) => page.items.some((t) => t.id === thread.id))) return data
    const [first, ...rest] = data.pages
    return {
      ...data,
      pages: [{ nextCursor: null, ...first, items: [...(first?.items ?? []), thread] }, ...rest],
    }
  })
}

/** `data` is every loaded thread; `fetchNextPage` loads older ones as the list scrolls. */
export function useThreads(enabled: boolean) {
  return useInfiniteQuery({ ...threadsQueryOptions, enabled, select: loadedThreads })
}
