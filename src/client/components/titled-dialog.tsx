// A dialog with a title and a line saying what it is for, then what the caller puts below: a
// form, a list, the buttons (DialogFooter). The frame every small dialog of the app shares.
import type { ComponentProps, ReactNode } from 'react'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from './ui/dialog.tsx'

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

/** For a dialog shown while `value` is set: closing it calls `onClose`. */
export function closesWith(onClose: () => void) {
  return (open: boolean) => {
    if (!open) onClose()
  }
}
