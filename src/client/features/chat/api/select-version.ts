import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from '#client/hooks/use-toast.ts'
import { ApiError, apiJson, errorText } from '#client/lib/api.ts'
import type { MessagePage } from '#contract/messages.ts'
import { focusMessage } from '../hooks/use-focus-message.ts'
import { getSelection } from '../hooks/use-thread-selection.ts'
import { setShownBranch } from './get-messages.ts'

/**
 * Shows another version of a turn (‹ 2/3 ›); the answer is the newest page of the branch the
 * thread now shows. A version older than that page is brought back into view: the conversation
 * loads the pages before until it is there, as for a search match. The thread goes with the call:
 * the person may have opened another one by the time it answers.
 */
export function useSelectVersion() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id }: { id: string; threadId: string }) =>
      apiJson<MessagePage>('POST', `/api/messages/${id}/select`),
    onSuccess: async (page, { id, threadId }) => {
      await setShownBranch(queryClient, threadId, page)
      if (page.items.some((m) => m.id === id)) return
      // After the page is drawn: TanStack Query tells its observers on a timer, and the view,
      // still holding the branch before (complete, without this version), would drop the focus.
      await new Promise((resolve) => setTimeout(resolve, 0))
      // Only in the thread still open: a focus waiting for another would hold this one's scroll.
      const open = getSelection()
      if (open.kind === 'thread' && open.id === threadId) focusMessage(id, threadId)
    },
    onError: (err) =>
      toast({
        title: 'Could not show that version',
        description: errorText(err, 'Please try again.'),
        variant: 'destructive',
      }),
  })
}

/**
 * Before a search match's thread opens: selects the match's branch (the server selects its
 * ancestors with it), so a match in a version not shown is shown. Another failure leaves the
 * thread as it was: the match is still found when it is on the shown branch. 'gone': the message
 * no longer exists (its thread deleted or history cleared since the search).
 */
export async function showBranchOf(
  queryClient: QueryClient,
  messageId: string,
  threadId: string,
): Promise<'shown' | 'gone'> {
  try {
    const page = await apiJson<MessagePage>('POST', `/api/messages/${messageId}/select`)
    await setShownBranch(queryClient, threadId, page)
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return 'gone'
    console.warn('Could not show the branch of a search match', err)
  }
  return 'shown'
}
