import Trash2 from 'lucide-react/icons/trash'
import { useState } from 'react'
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '#client/components/ui/alert-dialog.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { useDeleteAccount } from '../api/delete-account.ts'

/** Danger Zone confirmation: says exactly what goes, and stays open while the request runs. */
export function DeleteAccountDialog({ isPremium }: { isPremium: boolean }) {
  const [open, setOpen] = useState(false)
  const remove = useDeleteAccount()
  return (
    <AlertDialog open={open} onOpenChange={(next) => !remove.isPending && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button variant="destructive">
          <Trash2 aria-hidden="true" /> Delete Account
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete your account?</AlertDialogTitle>
          <AlertDialogDescription>
            This permanently deletes your Loris account. It cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
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
        <AlertDialogFooter>
          <AlertDialogCancel disabled={remove.isPending}>Cancel</AlertDialogCancel>
          <AlertDialogAction
            variant="destructive"
            disabled={remove.isPending}
            onClick={(e) => {
              // Keep the dialog open until the server answers; success leaves the page.
              e.preventDefault()
              remove.mutate()
            }}
          >
            {remove.isPending ? 'Deleting...' : 'Delete Account'}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}
