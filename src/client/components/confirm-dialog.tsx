// A question asked before something is lost: what goes, anything to read or type, then Cancel and
// the action. Radix's alert dialog puts the focus on Cancel; the action submits the dialog's form,
// so a typed confirmation is sent with Enter. The caller closes it when it should close.
import type { ReactNode } from 'react'
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from './ui/alert-dialog.tsx'
import { Button } from './ui/button.tsx'

export interface ConfirmDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The button that opens the dialog, when it is not opened from elsewhere. */
  trigger?: ReactNode
  title: ReactNode
  description: ReactNode
  /** Between the description and the buttons: what goes, a field to type. */
  children?: ReactNode
  /** The action's label. */
  action: ReactNode
  /** The request runs: Cancel and the action wait for it. */
  busy?: boolean
  /** The action cannot be taken yet (a confirmation not typed). */
  disabled?: boolean
  actionClassName?: string
  onConfirm: () => void
}

export function ConfirmDialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  children,
  action,
  busy = false,
  disabled = false,
  actionClassName,
  onConfirm,
}: ConfirmDialogProps) {
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      {trigger ? <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger> : null}
      <AlertDialogContent>
        <form
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault()
            if (!busy && !disabled) onConfirm()
          }}
        >
          <AlertDialogHeader>
            <AlertDialogTitle>{title}</AlertDialogTitle>
            <AlertDialogDescription>{description}</AlertDialogDescription>
          </AlertDialogHeader>
          {children}
          <AlertDialogFooter>
            <AlertDialogCancel type="button" disabled={busy}>
              Cancel
            </AlertDialogCancel>
            <Button
              type="submit"
              variant="destructive"
              className={actionClassName}
              disabled={busy || disabled}
            >
              {action}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  )
}
