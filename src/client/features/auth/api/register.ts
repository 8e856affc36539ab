import { useMutation, useQueryClient } from '@tanstack/react-query'
import { setUser } from '#client/app/api/get-user.ts'
import { toast } from '#client/hooks/use-toast.ts'
import { apiJson, errorText } from '#client/lib/api.ts'
import type { Credentials } from '#contract/auth.ts'
import type { User } from '#contract/user.ts'

export function useRegister() {
  const queryClient = useQueryClient()
  return useMutation({
    // `invite`: the token of an operator's invitation link (the /auth page reads it from the link).
    mutationFn: (body: Credentials & { invite?: string }) => apiJson<User>('POST', '/api/register', body),
    onSuccess: async (user) => {
      await setUser(queryClient, user)
      toast({ title: 'Welcome!', description: 'Successfully registered and logged in' })
    },
    onError: (err) =>
      toast({
        title: 'Registration failed',
        description: errorText(err, 'An unexpected error occurred'),
        variant: 'destructive',
      }),
  })
}
