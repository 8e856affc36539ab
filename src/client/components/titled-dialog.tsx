// A dialog with a title and a line saying what it is for, then what the caller puts below: a
// form, a list, the buttons (DialogFooter). The frame every small dialog of the app shares.
import type { ComponentProps, ReactNode } from 'react'
import { Button } from './ui/button.tsx'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from './ui/dialog.tsx'

export interface TitledDialogProps extends Omit<ComponentProps<typeof DialogContent>, 'title'> {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: ReactNode
  titleClassName?: string
  description: ReactNode
}

export function TitledDialog({
  open,
  onOpenChange,
  title,
  titleClassName,
  description,
  children,
  ...content
}: TitledDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent {...content}>
        <DialogHeader>
          <DialogTitle className={titleClassName}>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {children}
      </DialogContent>
    </Dialog>
  )
}

export interface FormDialogProps extends TitledDialogProps {
  /** Runs on the submit button or Enter (the browser's own submit is prevented). */
  onSubmit: () => void
  submitLabel: ReactNode
  submitDisabled?: boolean
  /** Shows a Cancel button that calls it. */
  onCancel?: () => void
  formClassName?: string
}

/** A titled dialog holding one form, its submit button (and Cancel) in the footer. */
export function FormDialog({
  onSubmit,
  submitLabel,
  submitDisabled,
  onCancel,
  formClassName,
  children,
  ...dialog
}: FormDialogProps) {
  return (
    <TitledDialog {...dialog}>
      <form
        className={formClassName}
        onSubmit={(e) => {
          e.preventDefault()
          onSubmit()
        }}
      >
        {children}
        <DialogFooter>
          {onCancel && (
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
          )}
          <Button type="submit" disabled={submitDisabled}>
            {submitLabel}
          </Button>
        </DialogFooter>
      </form>
    </TitledDialog>
  )
}

/** For a dialog shown while `value` is set: closing it calls `onClose`. */
export function closesWith(onClose: () => void) {
  return (open: boolean) => {
    if (!open) onClose()
  }
}
