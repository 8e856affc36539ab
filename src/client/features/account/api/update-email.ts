import { useMutation, useQueryClient } from '@tanstack/react-query'
import { setUser } from '#client/app/api/get-user.ts'
import { toast } from '#client/hooks/use-toast.ts'
import { apiJson, errorText } from '#client/lib/api.ts'
import type { UpdateEmailBody } from '#contract/account.ts'
import type { User } from '#contract/user.ts'

export function updateEmail(body: UpdateEmailBody): Promise<User> {
  return apiJson<User>('POST', '/api/user/update-email', body)
}

/** Spec section 4 'Update email success': the cached user becomes the server's answer. */
export function useUpdateEmail({ onSuccess }: { onSuccess?: (user: User) => void } = {}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateEmail,
    onSuccess: async (user) => {
      await setUser(queryClient, user)
      onSuccess?.(user)
      toast({ title: 'Email updated', description: 'Your email has been updated successfully' })
    },
    onError: (err) =>
      toast({
        title: 'Error updating email',
        description: errorText(err, 'Failed to update email'),
        variant: 'destructive',
      }),
  })
}
