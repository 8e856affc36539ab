import { useEffect, useState } from 'react'
import { isThreadGone } from '#client/app/api/get-threads.ts'
import { TextField } from '#client/components/text-field.tsx'
import { closesWith, FormDialog } from '#client/components/titled-dialog.tsx'
import { THREAD_TITLE_MAX } from '#contract/thread-titles.ts'
import type { Thread } from '#contract/threads.ts'
import { useRenameThread } from '../api/rename-thread.ts'

/** Spec section 5: the title must be non-empty once trimmed; otherwise Rename is disabled and Enter ignored. */
export function RenameThreadDialog({ thread, onClose }: { thread: Thread | null; onClose: () => void }) {
  const [title, setTitle] = useState('')
  const rename = useRenameThread()
  useEffect(() => {
    if (thread) setTitle(thread.title)
  }, [thread])
  const valid = title.trim().length > 0
  const submit = () => {
    if (!thread || !valid || rename.isPending) return
    // A thread deleted elsewhere has nothing left to rename: the dialog goes with its row.
    rename.mutate(
      { id: thread.id, title },
      { onSuccess: onClose, onError: (error) => isThreadGone(error) && onClose() },
    )
  }
  return (
    <FormDialog
      open={thread !== null}
      onOpenChange={closesWith(onClose)}
      className="sm:max-w-md"
      title="Rename Thread"
      description="Give this conversation a name you will recognise."
      formClassName="grid gap-4"
      onSubmit={submit}
      submitLabel="Rename"
      submitDisabled={!valid || rename.isPending}
      onCancel={onClose}
    >
      <TextField
        id="thread-title"
        label="Title"
        value={title}
        maxLength={THREAD_TITLE_MAX}
        autoComplete="off"
        onChange={(e) => setTitle(e.target.value)}
      />
    </FormDialog>
  )
}
