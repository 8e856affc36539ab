import { queryOptions, useQuery } from '@tanstack/react-query'
import type { Message } from '#contract/messages.ts'

export class FetchMessagesError extends Error {
  constructor(readonly status: number) {
    super('Failed to fetch messages')
  }
}

export const messagesQueryKey = (threadId: string) => ['/api/messages', threadId] as const

async function fetchMessages(threadId: string, signal: AbortSignal): Promise<Message[]> {
  const res = await fetch(`/api/messages?threadId=${encodeURIComponent(threadId)}`, {
    credentials: 'include',
    signal,
  })
  if (!res.ok) throw new FetchMessagesError(res.status)
  return (await res.json()) as Message[]
}

// Spec section 9: retried fewer than 2 times and never on a 401; nor on a 404 (a thread deleted
// meanwhile, e.g. by Clear History, does not come back).
export const messagesQueryOptions = (threadId: string) =>
  queryOptions({
    queryKey: messagesQueryKey(threadId),
    queryFn: ({ signal }) => fetchMessages(threadId, signal),
    retry: (failureCount, error) =>
      failureCount < 2 && !(error instanceof FetchMessagesError && [401, 404].includes(error.status)),
  })

/**
 * Spec section 5: only with a user and a thread id. While a reply in this thread is being
 * written by someone else (another tab, or this one before a reload), poll every second.
 */
export function useMessages(threadId: string | null, enabled: boolean, streamingHereId: string | null) {
  return useQuery({
    ...messagesQueryOptions(threadId ?? ''),
    enabled: enabled && Boolean(threadId),
    refetchInterval: (query) =>
      query.state.data?.some((m) => m.status === 'streaming' && m.id !== streamingHereId) ? 1000 : false,
  })
}
