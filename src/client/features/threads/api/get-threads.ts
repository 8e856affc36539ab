import { queryOptions, useQuery } from '@tanstack/react-query'
import type { Thread } from '#contract/threads.ts'

export const threadsQueryKey = ['/api/threads'] as const

async function fetchThreads({ signal }: { signal: AbortSignal }): Promise<Thread[]> {
  const res = await fetch('/api/threads', { credentials: 'include', signal })
  if (!res.ok) throw new Error('Failed to fetch threads')
  return (await res.json()) as Thread[]
}

// Spec section 9: threads are fresh for 60 s; fetched only for a signed-in user.
export const threadsQueryOptions = queryOptions({
  queryKey: threadsQueryKey,
  queryFn: fetchThreads,
  staleTime: 60_000,
})

export function useThreads(enabled: boolean) {
  return useQuery({ ...threadsQueryOptions, enabled })
}
