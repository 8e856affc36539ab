import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from '#client/hooks/use-toast.ts'
import { apiJson } from '#client/lib/api.ts'
import type { AdminLimits } from '#contract/admin.ts'
import { auditQueryKey } from './get-audit.ts'

export const limitsQueryKey = ['/api/admin/limits'] as const

export type LimitsAnswer = AdminLimits & { defaults: AdminLimits }

/** GET /api/admin/limits: the plan limits in force, and the environment's defaults. */
export function useLimits() {
  return useQuery({
    queryKey: limitsQueryKey,
    queryFn: () => apiJson<LimitsAnswer>('GET', '/api/admin/limits'),
  })
}

/** PUT /api/admin/limits: every node reads them from the database, so they apply without a restart. */
export function useSaveLimits() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (limits: AdminLimits) => apiJson<LimitsAnswer>('PUT', '/api/admin/limits', limits),
    onSuccess: async (saved) => {
      queryClient.setQueryData(limitsQueryKey, saved)
      toast({ title: 'Plan limits saved', description: 'The free and premium limits are stored.' })
      await queryClient.invalidateQueries({ queryKey: auditQueryKey })
    },
  })
}
