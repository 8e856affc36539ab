import { ConfirmDialog } from '#client/components/confirm-dialog.tsx'
import { closesWith } from '#client/components/titled-dialog.tsx'
import type { Thread } from '#contract/threads.ts'
import { useDeleteThread } from '../api/delete-thread.ts'

export function DeleteThreadDialog({
  thread,
  onClose,
  onDeleted,
}: {
  thread: Thread | null
  onClose: () => void
  onDeleted: (id: string) => void
}) {
  const remove = useDeleteThread({ onDeleted })
  return (
    <ConfirmDialog
      open={thread !== null}
      onOpenChange={closesWith(onClose)}
      title="Delete thread"
      description={<>Are you sure you want to delete "{thread?.title}"? This action cannot be undone.</>}
      action="Delete"
      disabled={remove.isPending}
      onConfirm={() => {
        if (thread) remove.mutate(thread.id)
        onClose()
      }}
    />
  )
}
