import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useLocation } from 'wouter'
import { toast } from '#client/hooks/use-toast.ts'
import { apiRequest } from '#client/lib/api.ts'
import { endSessionHere } from './get-user.ts'

/**
 * Signs out (spec section 4 'Auth'): clears the user and every cached query of theirs, then
 * goes to /chat. `silent` suppresses the 'Logged out' toast (account deletion).
 */
export function useLogout({
  errorTitle = 'Logout failed',
  errorDescription,
}: {
  errorTitle?: string
  errorDescription?: string
} = {}) {
  const queryClient = useQueryClient()
  const [, navigate] = useLocation()
  return useMutation({
    mutationFn: async (_opts: { silent?: boolean } = {}) => {
      await apiRequest('POST', '/api/logout')
    },
    onSuccess: async (_data, opts) => {
      await endSessionHere(queryClient, () => navigate('/chat'))
      if (!opts?.silent) toast({ title: 'Logged out', description: 'Successfully logged out' })
    },
    onError: () => toast({ title: errorTitle, description: errorDescription, variant: 'destructive' }),
  })
}
