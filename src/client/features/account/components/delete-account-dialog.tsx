import Trash2 from 'lucide-react/icons/trash'
import { useState } from 'react'
import { ConfirmDialog } from '#client/components/confirm-dialog.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { useDeleteAccount } from '../api/delete-account.ts'

/** Danger Zone confirmation: says exactly what goes, and stays open while the request runs. */
export function DeleteAccountDialog({ isPremium }: { isPremium: boolean }) {
  const [open, setOpen] = useState(false)
  const remove = useDeleteAccount()
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => !remove.isPending && setOpen(next)}
      trigger={
        <Button variant="destructive">
          <Trash2 aria-hidden="true" /> Delete Account
        </Button>
      }
      title="Delete your account?"
      description="This permanently deletes your Loris account. It cannot be undone."
      action={remove.isPending ? 'Deleting...' : 'Delete Account'}
      busy={remove.isPending}
      // The dialog stays open until the server answers; success leaves the page.
      onConfirm={() => remove.mutate()}
    >
      <div className="text-sm">
        <p className="font-medium">What will be deleted:</p>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-muted-foreground">
          <li>All your threads and messages</li>
          <li>Every file you uploaded</li>
          <li>Your impact history: CO2 saved and trees planted</li>
          <li>
            {isPremium
              ? 'Your Loris Pro subscription, which is cancelled immediately and will not renew'
              : 'Any Loris Pro subscription, which is cancelled immediately'}
          </li>
        </ul>
      </div>
    </ConfirmDialog>
  )
}
