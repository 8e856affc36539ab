import { useQuery } from '@tanstack/react-query'
import { useUser } from '#client/app/api/get-user.ts'
import { apiJson } from '#client/lib/api.ts'
import type { ModelsResponse } from '#contract/models.ts'

export const modelsQueryKey = ['/api/models'] as const

/** The catalogue's models this person may use and the modes' footprints (GET /api/models). */
export function useModels() {
  const { user } = useUser()
  return useQuery({
    queryKey: modelsQueryKey,
    queryFn: () => apiJson<ModelsResponse>('GET', '/api/models'),
    enabled: Boolean(user),
    staleTime: 5 * 60_000,
  })
}
