import { type FormEvent, useId, useState } from 'react'
import { EmailField } from '#client/components/text-field.tsx'
import { TitledDialog } from '#client/components/titled-dialog.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { DialogFooter } from '#client/components/ui/dialog.tsx'
import { emailSchema } from '#contract/auth.ts'
import { useUpdateEmail } from '../api/update-email.ts'

// Spec section 5: the same rule the server applies, checked before sending.
const INVALID = 'Please enter a valid email address'

/** 'Update Email' (spec section 2): one field, 'New Email Address'. */
export function UpdateEmailDialog({
  open,
  onOpenChange,
  currentEmail,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  currentEmail: string
}) {
  const id = useId()
  const [email, setEmail] = useState('')
  const [error, setError] = useState<string | null>(null)
  const reset = () => {
    setEmail('')
    setError(null)
  }
  const update = useUpdateEmail({
    onSuccess: () => {
      reset()
      onOpenChange(false)
    },
  })

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const parsed = emailSchema.safeParse(email)
    if (!parsed.success) {
      setError(INVALID)
      return
    }
    setError(null)
    update.mutate({ email: parsed.data })
  }

  return (
    <TitledDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) reset()
        onOpenChange(next)
      }}
      className="sm:max-w-md"
      title="Update Email"
      description={
        <>
          You currently sign in as <span className="font-medium text-foreground">{currentEmail}</span>.
        </>
      }
    >
      <form onSubmit={submit} className="grid gap-4" noValidate>
        <EmailField
          id={`${id}-email`}
          label="New Email Address"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value)
            if (error) setError(null)
          }}
          error={error}
          autoFocus
        />
        <DialogFooter>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? 'Updating...' : 'Update Email'}
          </Button>
        </DialogFooter>
      </form>
    </TitledDialog>
  )
}
