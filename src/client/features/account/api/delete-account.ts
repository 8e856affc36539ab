import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useLocation } from 'wouter'
import { endSessionHere } from '#client/app/api/get-user.ts'
import { toast } from '#client/hooks/use-toast.ts'
import { apiJson, errorText } from '#client/lib/api.ts'
import type { DeleteAccountResult } from '#contract/account.ts'

export function deleteAccount(): Promise<DeleteAccountResult> {
  return apiJson<DeleteAccountResult>('POST', '/api/delete-account', {})
}

/**
 * Spec section 4 'Auth': after deletion the user is logged out without a toast and sent to
 * /chat. The server already ended the session, so this is the client half of a silent logout.
 */
export function useDeleteAccount() {
  const queryClient = useQueryClient()
  const [, navigate] = useLocation()
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => endSessionHere(queryClient, () => navigate('/chat')),
    onError: (err) =>
      toast({
        title: 'Error deleting account',
        description: errorText(err, 'Failed to delete account'),
        variant: 'destructive',
      }),
  })
}
