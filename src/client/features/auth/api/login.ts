import { useMutation, useQueryClient } from '@tanstack/react-query'
import { setUser } from '#client/app/api/get-user.ts'
import { toast } from '#client/hooks/use-toast.ts'
import { apiJson, errorText } from '#client/lib/api.ts'
import type { Credentials } from '#contract/auth.ts'
import type { User } from '#contract/user.ts'

export function useLogin() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (credentials: Credentials) => apiJson<User>('POST', '/api/login', credentials),
    onSuccess: (user) => setUser(queryClient, user),
    onError: (err) =>
      toast({
        title: 'Login failed',
        description: errorText(err, 'An unexpected error occurred'),
        variant: 'destructive',
      }),
  })
}
