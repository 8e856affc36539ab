import {
  type InfiniteData,
  infiniteQueryOptions,
  type QueryClient,
  useInfiniteQuery,
} from '@tanstack/react-query'
import type { Message, MessagePage } from '#contract/messages.ts'
import { MESSAGES_PAGE_SIZE } from '#contract/page-sizes.ts'

export class FetchMessagesError extends Error {
  constructor(
    readonly status: number,
    /** The server's error code (`not_found:thread`: the thread was deleted elsewhere). */
    readonly code?: string,
  ) {
    super('Failed to fetch messages')
  }
}

async function errorCode(res: Response): Promise<string | undefined> {
  const body = (await res.json().catch(() => null)) as { code?: unknown } | null
  return typeof body?.code === 'string' ? body.code : undefined
}

export const messagesQueryKey = (threadId: string) => ['/api/messages', threadId] as const

/** The cached pages of a thread: the newest first, each oldest first. */
export type MessagePages = InfiniteData<MessagePage, string | null>

async function fetchMessagePage(threadId: string, cursor: string | null, signal: AbortSignal) {
  const params = new URLSearchParams({ threadId, limit: String(MESSAGES_PAGE_SIZE) })
  if (cursor) params.set('cursor', cursor)
  const res = await fetch(`/api/messages?${params}`, { credentials: 'include', signal })
  if (!res.ok) throw new FetchMessagesError(res.status, await errorCode(res))
  return (await res.json()) as MessagePage
}

/** Every loaded message of the thread, oldest first, as the conversation shows them. */
export function loadedMessages(data: MessagePages): Message[] {
  return [...data.pages].reverse().flatMap((page) => page.items)
}

// Spec section 9: retried fewer than 2 times and never on a 401; nor on a 404 (a thread deleted
// meanwhile, e.g. by Clear History, does not come back).
export const messagesQueryOptions = (threadId: string) =>
  infiniteQueryOptions({
    queryKey: messagesQueryKey(threadId),
    queryFn: ({ signal, pageParam }) => fetchMessagePage(threadId, pageParam, signal),
    initialPageParam: null as string | null,
    // Pages go back in time: the "next" page holds the messages before the oldest loaded.
    getNextPageParam: (last) => last.nextCursor,
    retry: (failureCount, error) =>
      failureCount < 2 && !(error instanceof FetchMessagesError && [401, 404].includes(error.status)),
  })

/**
 * Both writers of a thread's cached messages (a finished exchange, a version switch) first
 * cancel the loads of it on their way: those were asked before what is written and would put the
 * older answer back when they land. A first load in flight is not even replaced by an
 * invalidation (TanStack Query joins it, having no data to keep), so the write would vanish.
 */
function cancelThreadLoads(queryClient: QueryClient, threadId: string) {
  return queryClient.cancelQueries({ queryKey: messagesQueryKey(threadId) })
}

/**
 * Puts a finished exchange in the cached thread (newest page), replacing any earlier copy. With
 * nothing cached, `start` makes it the cache until a refetch (a thread the send created, or the
 * one in view); otherwise nothing is cached, so a thread not in view never holds part of itself.
 * A new version (`revises`: the exchange it is a version of) replaces that turn and everything
 * after it on the loaded pages, until the refetch. False, with nothing written, when `signal`
 * was aborted while the loads were being cancelled (signed out, left the page).
 */
export async function putMessage(
  queryClient: QueryClient,
  threadId: string,
  message: Message,
  { start, revises = null, signal }: { start: boolean; revises?: string | null; signal?: AbortSignal },
): Promise<boolean> {
  await cancelThreadLoads(queryClient, threadId)
  if (signal?.aborted) return false
  queryClient.setQueryData<MessagePages>(messagesQueryKey(threadId), (data) => {
    if (!data)
      return start ? { pages: [{ items: [message], nextCursor: null }], pageParams: [null] } : undefined
    // Oldest page first, so that once the revised turn is met every later message is dropped.
    let cut = false
    const pages = [...data.pages]
      .reverse()
      .map((page) => ({
        ...page,
        items: page.items.filter((m) => {
          if (revises && m.id === revises) cut = true
          return !cut && m.id !== message.id
        }),
      }))
      .reverse()
    const [newest, ...older] = pages
    return {
      ...data,
      pages: [{ nextCursor: null, ...newest, items: [...(newest?.items ?? []), message] }, ...older],
    }
  })
  return true
}

/**
 * The newest page of the shown branch as the server answered it (a version switch): it replaces
 * every loaded page, so no cursor of the branch shown before is followed; older pages load from
 * its cursor as the reader scrolls up.
 */
export async function setShownBranch(queryClient: QueryClient, threadId: string, page: MessagePage) {
  await cancelThreadLoads(queryClient, threadId)
  queryClient.setQueryData<MessagePages>(messagesQueryKey(threadId), {
    pages: [page],
    pageParams: [null],
  })
}

/**
 * Spec section 5: only with a user and a thread id. While a reply in this thread is being
 * written by someone else (another tab, or this one before a reload), poll every second.
 * `data` is the loaded messages oldest first; `fetchNextPage` loads older ones.
 */
export function useMessages(threadId: string | null, enabled: boolean, streamingHereId: string | null) {
  return useInfiniteQuery({
    ...messagesQueryOptions(threadId ?? ''),
    enabled: enabled && Boolean(threadId),
    select: loadedMessages,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) =>
        page.items.some((m) => m.status === 'streaming' && m.id !== streamingHereId),
      )
        ? 1000
        : false,
  })
}
