import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from '#client/hooks/use-toast.ts'
import { apiJson, errorText } from '#client/lib/api.ts'
import type { Message } from '#contract/messages.ts'
import type { ApprovalAnswer } from '#contract/tools.ts'
import { putMessage } from './get-messages.ts'

/**
 * Answers the tool calls a reply waits on: approved, the tool runs and the reply goes on; denied,
 * the model is told and goes on without it. The reply is then written like any other: its thread
 * shows it streaming (polled) until it ends.
 */
export function useAnswerApproval() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ messageId, approved }: ApprovalAnswer & { messageId: string }) =>
      apiJson<Message>('POST', `/api/messages/${messageId}/approval`, { approved } satisfies ApprovalAnswer),
    onSuccess: async (message) => {
      if (message.threadId) await putMessage(queryClient, message.threadId, message, { start: false })
    },
    onError: (err) => {
      toast({
        title: 'Could not answer the tool call',
        description: errorText(err, 'Please try again.'),
        variant: 'destructive',
      })
      // Answered elsewhere meanwhile, or expired: the thread shows what happened.
      void queryClient.invalidateQueries({ queryKey: ['/api/messages'] })
    },
  })
}
