import { useMutation, useQueryClient } from '@tanstack/react-query'
import { setUser } from '#client/app/api/get-user.ts'
import { toast } from '#client/hooks/use-toast.ts'
import { apiJson } from '#client/lib/api.ts'
import type { User } from '#contract/user.ts'

/** Spec section 4: a tree on every second sent message; the answer is the updated user. */
export function usePlantTree() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => apiJson<User>('POST', '/api/user/plant-tree'),
    onSuccess: (user) => setUser(queryClient, user),
    onError: () =>
      toast({
        title: 'Error planting tree',
        description: 'Failed to update tree count. Please try again.',
        variant: 'destructive',
      }),
  })
}
