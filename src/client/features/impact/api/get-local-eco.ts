import { queryOptions, useQuery } from '@tanstack/react-query'
import { throwIfNotOk } from '#client/lib/api.ts'
import { type LocalEcoFigures, localEcoFiguresSchema } from '#contract/eco-engine.ts'

// What the Loris eco engine has measured (GET /api/impact/local-eco). The calculator shows it
// beside the estimates and must stay whole without it: a failed request or an answer that does
// not fit the contract is an error the column shows as "not measured yet", never a crash.
export const localEcoQueryOptions = queryOptions<LocalEcoFigures>({
  queryKey: ['/api/impact/local-eco'],
  queryFn: async ({ signal }) => {
    const res = await fetch('/api/impact/local-eco', { credentials: 'include', signal })
    await throwIfNotOk(res)
    return localEcoFiguresSchema.parse(await res.json())
  },
  // New replies add samples: worth a fresh look on each visit, not on every render.
  staleTime: 60_000,
})

export function useLocalEco() {
  return useQuery(localEcoQueryOptions)
}
