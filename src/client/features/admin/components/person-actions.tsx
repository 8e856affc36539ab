import { useId, useState } from 'react'
import { ConfirmDialog } from '#client/components/confirm-dialog.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { Input } from '#client/components/ui/input.tsx'
import type { AdminPerson } from '#contract/admin.ts'
import { usePersonAction } from '../api/person-actions.ts'
import { Field } from './field.tsx'

/** Suspend or restore, grant or remove the operator role, delete (typed confirmation). */
export function PersonActions({ person }: { person: AdminPerson }) {
  const act = usePersonAction()
  const button = (label: string, action: Parameters<typeof act.mutate>[0]['action']) => (
    <Button
      size="sm"
      variant="outline"
      disabled={act.isPending}
      onClick={() => act.mutate({ person, action })}
    >
      {label}
    </Button>
  )
  return (
    <div className="flex flex-wrap gap-2">
      {person.suspendedAt ? button('Restore', { kind: 'restore' }) : button('Suspend', { kind: 'suspend' })}
      {/* An operator by ADMIN_EMAILS stays one until the address leaves the configuration. */}
      {person.operator === 'config'
        ? null
        : person.operator
          ? button('Remove operator', { kind: 'role', operator: false })
          : button('Make operator', { kind: 'role', operator: true })}
      <DeletePersonDialog person={person} />
    </div>
  )
}

// The destructive red (#dc2626) under its light text is 4.41:1, short of WCAG AA's 4.5 for small
// text; a darker red keeps the meaning and reads at 5.9:1.
const DELETE_CLASS = 'bg-red-700 hover:bg-red-800'

/** Deleting is asked for by typing the person's address, as the server requires. */
function DeletePersonDialog({ person }: { person: AdminPerson }) {
  const id = useId()
  const [open, setOpen] = useState(false)
  const [typed, setTyped] = useState('')
  const remove = usePersonAction()
  const matches = typed.trim() === person.email
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        if (remove.isPending) return
        setOpen(next)
        setTyped('')
      }}
      trigger={
        <Button size="sm" variant="destructive" className={DELETE_CLASS}>
          Delete
        </Button>
      }
      title={`Delete ${person.email}?`}
      description="Their account, threads, messages, files and impact history are deleted, and any Pro subscription is cancelled. This cannot be undone."
      action={remove.isPending ? 'Deleting...' : 'Delete account'}
      actionClassName={DELETE_CLASS}
      busy={remove.isPending}
      disabled={!matches}
      onConfirm={() =>
        remove.mutate(
          { person, action: { kind: 'delete', confirmEmail: typed.trim() } },
          { onSuccess: () => setOpen(false) },
        )
      }
    >
      <Field id={`${id}-confirm`} label={`Type ${person.email} to confirm`}>
        <Input
          id={`${id}-confirm`}
          value={typed}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => setTyped(e.target.value)}
        />
      </Field>
    </ConfirmDialog>
  )
}
