// Share: a read-only snapshot link anyone can open; search engines skip it unless the
// owner ticks the box.
import Check from 'lucide-react/icons/check'
import Copy from 'lucide-react/icons/copy'
import { useEffect, useState } from 'react'
import { closesWith, TitledDialog } from '#client/components/titled-dialog.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { DialogFooter } from '#client/components/ui/dialog.tsx'
import { Input } from '#client/components/ui/input.tsx'
import { Label } from '#client/components/ui/label.tsx'
import { errorText } from '#client/lib/api.ts'
import type { Thread } from '#contract/threads.ts'
import { useShareThread } from '../api/share-thread.ts'

export function ShareThreadDialog({ thread, onClose }: { thread: Thread | null; onClose: () => void }) {
  const [allowIndexing, setAllowIndexing] = useState(false)
  const [copied, setCopied] = useState(false)
  const share = useShareThread()
  const { reset } = share
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new thread starts a new dialog
  useEffect(() => {
    setAllowIndexing(false)
    setCopied(false)
    reset()
  }, [thread])
  const url = share.data?.url
  return (
    <TitledDialog
      open={thread !== null}
      onOpenChange={closesWith(onClose)}
      className="sm:max-w-md"
      title="Share conversation"
      description="Anyone with the link can read this conversation as it is now; later messages are not shared. You can revoke the link in Settings, under Actions."
    >
      {url ? (
        <div className="grid gap-2">
          <Label htmlFor="share-url">Link</Label>
          <div className="flex gap-2">
            <Input id="share-url" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
            <Button
              type="button"
              variant="outline"
              aria-label="Copy link"
              onClick={() => {
                void navigator.clipboard?.writeText(url).then(() => setCopied(true))
              }}
            >
              {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
            </Button>
          </div>
        </div>
      ) : (
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={allowIndexing}
            onChange={(e) => setAllowIndexing(e.target.checked)}
            className="size-4 accent-primary"
          />
          Allow search engines to index this page
        </label>
      )}
      {share.isError && (
        <p role="alert" className="text-sm text-destructive">
          {errorText(share.error, 'The link could not be created. Please try again.')}
        </p>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          {url ? 'Done' : 'Cancel'}
        </Button>
        {!url && (
          <Button
            type="button"
            disabled={!thread || share.isPending}
            onClick={() => thread && share.mutate({ id: thread.id, allowIndexing })}
          >
            Create link
          </Button>
        )}
      </DialogFooter>
    </TitledDialog>
  )
}
