import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from '#client/hooks/use-toast.ts'
import { apiJson, errorText } from '#client/lib/api.ts'
import type { AdminWaitlistResponse } from '#contract/admin.ts'
import { auditQueryKey } from './get-audit.ts'

export const waitlistQueryKey = ['/api/admin/waitlist'] as const

/** GET /api/admin/waitlist: every address, with its newest invitation and whether it registered. */
export function useWaitlist() {
  return useQuery({
    queryKey: waitlistQueryKey,
    queryFn: () => apiJson<AdminWaitlistResponse>('GET', '/api/admin/waitlist'),
  })
}

/** POST /api/admin/waitlist/invite: mails a single-use sign-up link. */
export function useInvite() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (email: string) =>
      apiJson<{ ok: true; expiresAt: string }>('POST', '/api/admin/waitlist/invite', { email }),
    onSuccess: async (_, email) => {
      toast({ title: 'Invitation sent', description: `${email} was e-mailed a sign-up link` })
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: waitlistQueryKey }),
        queryClient.invalidateQueries({ queryKey: auditQueryKey }),
      ])
    },
    onError: (err) =>
      toast({
        title: 'Invitation not sent',
        description: errorText(err, 'The invitation could not be sent. Try again.'),
        variant: 'destructive',
      }),
  })
}
