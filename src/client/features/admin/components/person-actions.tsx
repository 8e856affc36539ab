import { useId, useState } from 'react'
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '#client/components/ui/alert-dialog.tsx'
import { Button } from '#client/components/ui/button.tsx'
import { Input } from '#client/components/ui/input.tsx'
import type { AdminPerson } from '#contract/admin.ts'
import { usePersonAction } from '../api/person-actions.ts'
import { Field } from './field.tsx'

/** Suspend or restore, grant or remove the operator role, delete (typed confirmation). */
export function PersonActions({ person }: { person: AdminPerson }) {
  const act = usePersonAction()
  const busy = act.isPending
  const byConfig = person.operator === 'config'
  return (
    <div className="flex flex-wrap gap-2">
      {person.suspendedAt ? (
        <Button
          size="sm"
          variant="outline"
          disabled={busy}
          onClick={() => act.mutate({ person, action: { kind: 'restore' } })}
        >
          Restore
        </Button>
      ) : (
        <Button
          size="sm"
          variant="outline"
          disabled={busy}
          onClick={() => act.mutate({ person, action: { kind: 'suspend' } })}
        >
          Suspend
        </Button>
      )}
      {/* An operator by ADMIN_EMAILS stays one until the address leaves the configuration. */}
      {byConfig ? null : person.operator ? (
        <Button
          size="sm"
          variant="outline"
          disabled={busy}
          onClick={() => act.mutate({ person, action: { kind: 'role', operator: false } })}
        >
          Remove operator
        </Button>
      ) : (
        <Button
          size="sm"
          variant="outline"
          disabled={busy}
          onClick={() => act.mutate({ person, action: { kind: 'role', operator: true } })}
        >
          Make operator
        </Button>
      )}
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
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        if (remove.isPending) return
        setOpen(next)
        setTyped('')
      }}
    >
      <AlertDialogTrigger asChild>
        <Button size="sm" variant="destructive" className={DELETE_CLASS}>
          Delete
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <form
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault()
            if (!matches) return
            remove.mutate(
              { person, action: { kind: 'delete', confirmEmail: typed.trim() } },
              { onSuccess: () => setOpen(false) },
            )
          }}
        >
          <AlertDialogHeader>
            <AlertDialogTitle>Delete {person.email}?</AlertDialogTitle>
            <AlertDialogDescription>
              Their account, threads, messages, files and impact history are deleted, and any Pro subscription
              is cancelled. This cannot be undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <Field id={`${id}-confirm`} label={`Type ${person.email} to confirm`}>
            <Input
              id={`${id}-confirm`}
              value={typed}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => setTyped(e.target.value)}
            />
          </Field>
          <AlertDialogFooter>
            <AlertDialogCancel type="button" disabled={remove.isPending}>
              Cancel
            </AlertDialogCancel>
            <Button
              type="submit"
              variant="destructive"
              className={DELETE_CLASS}
              disabled={!matches || remove.isPending}
            >
              {remove.isPending ? 'Deleting...' : 'Delete account'}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  )
}
