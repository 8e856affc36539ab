import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from '#client/hooks/use-toast.ts'
import { apiJson, errorText } from '#client/lib/api.ts'
import type { Instructions } from '#contract/assistant.ts'

const KEY = ['settings', 'instructions'] as const

export function useInstructions() {
  return useQuery({
    queryKey: KEY,
    queryFn: () => apiJson<Instructions>('GET', '/api/settings/instructions'),
  })
}

export function useSaveInstructions() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: Instructions) => apiJson<Instructions>('PUT', '/api/settings/instructions', body),
    onSuccess: (saved) => {
      queryClient.setQueryData(KEY, saved)
      toast({
        title: 'Instructions saved',
        description: saved.enabled ? 'Loris will follow them' : 'They are off',
      })
    },
    onError: (err) =>
      toast({
        title: 'Error saving instructions',
        description: errorText(err, 'Failed to save your instructions'),
        variant: 'destructive',
      }),
  })
}
