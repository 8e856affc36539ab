import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import type { User } from '#contract/user.ts'
import { invalidateCo2Metrics } from '../api/get-co2-saved.ts'

/**
 * Keeps the CO2 numbers (which never go stale on their own, spec 9) in step with the chat: each
 * stored reply changes them, and a reply's end shows as fresh data for an /api/messages query
 * (the chat settles its list from the server). A changed user record (the plant-tree answer,
 * a refetch on focus) means newer totals too.
 */
export function useFreshCo2Metrics(user: Pick<User, 'co2Saved' | 'treesPlanted'>) {
  const queryClient = useQueryClient()
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'success') return
        const [path] = event.query.queryKey
        if (typeof path === 'string' && path.startsWith('/api/messages'))
          void invalidateCo2Metrics(queryClient)
      }),
    [queryClient],
  )

  const totals = `${user.co2Saved}:${user.treesPlanted}`
  const seen = useRef(totals)
  useEffect(() => {
    if (seen.current === totals) return
    seen.current = totals
    void invalidateCo2Metrics(queryClient)
  }, [queryClient, totals])
}
