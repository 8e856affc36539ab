// The calls behind the mailed links and "Forgot password?" (decision 010).
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { endSessionHere, userQueryKey } from '#client/app/api/get-user.ts'
import { toast } from '#client/hooks/use-toast.ts'
import { apiJson, errorText } from '#client/lib/api.ts'

type Ok = { ok: true }

export function useVerifyEmail() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (token: string) => apiJson<Ok>('POST', '/api/verify-email', { token }),
    // The banner goes away wherever this person is signed in.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userQueryKey }),
  })
}

export function useResendVerification() {
  return useMutation({
    mutationFn: () => apiJson<Ok>('POST', '/api/verify-email/resend'),
    onSuccess: () =>
      toast({ title: 'Link sent', description: 'Check your inbox for a new confirmation link.' }),
    onError: (err) =>
      toast({
        title: 'Could not send the link',
        description: errorText(err, 'Please try again in a moment.'),
        variant: 'destructive',
      }),
  })
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (email: string) => apiJson<Ok>('POST', '/api/forgot-password', { email }),
  })
}

export function useResetPassword() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (values: { token: string; password: string }) =>
      apiJson<Ok>('POST', '/api/reset-password', values),
    // Every session ended, this browser's too: it is a visitor until it signs in again.
    onSuccess: () => endSessionHere(queryClient),
  })
}
