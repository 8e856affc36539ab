import { type FormEvent, useId, useState } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import { Input } from '#client/components/ui/input.tsx'
import { useInvite, useWaitlist } from '../api/waitlist.ts'
import { dateOnly, dateTime } from '../lib/dates.ts'
import { CsvLink, Field } from './field.tsx'
import { QueryState } from './query-state.tsx'

/** The waitlist, its CSV, and invitations: a single-use sign-up link mailed to an address. */
export function WaitlistTab() {
  const id = useId()
  const waitlist = useWaitlist()
  const invite = useInvite()
  const [address, setAddress] = useState('')
  const send = (e: FormEvent) => {
    e.preventDefault()
    invite.mutate(address.trim(), { onSuccess: () => setAddress('') })
  }
  const entries = waitlist.data?.entries ?? []
  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          Waitlist
        </h2>
        <CsvLink href="/api/admin/waitlist?format=csv">Export CSV</CsvLink>
      </div>
      <form
        onSubmit={send}
        aria-label="Invite an address"
        className="flex flex-wrap items-end gap-3"
        noValidate
      >
        <Field id={`${id}-email`} label="Invite an address" className="min-w-0 flex-1 basis-64">
          <Input
            id={`${id}-email`}
            type="email"
            autoComplete="off"
            value={address}
            onChange={(e) => setAddress(e.target.value)}
          />
        </Field>
        <Button type="submit" disabled={invite.isPending || !address.trim()}>
          {invite.isPending && invite.variables === address.trim() ? 'Sending...' : 'Send invitation'}
        </Button>
      </form>
      <QueryState
        query={waitlist}
        loading="Loading the waitlist"
        failed="The waitlist could not be loaded"
        empty={entries.length === 0 && 'Nobody is on the waitlist yet.'}
      >
        {() => (
          <ul className="grid gap-2" aria-label="Addresses on the waitlist">
            {entries.map((entry) => (
              <li
                key={entry.email}
                className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 rounded-lg border bg-card p-3 text-sm"
              >
                <div className="grid min-w-0 gap-0.5">
                  <span className="break-all font-medium">{entry.email}</span>
                  <span className="text-xs text-muted-foreground">
                    Joined {dateOnly(entry.createdAt)}
                    {entry.invitedAt ? `, invited ${dateTime(entry.invitedAt)}` : ''}
                    {entry.registered ? ', has an account' : ''}
                  </span>
                </div>
                {entry.registered ? null : (
                  <Button
                    size="sm"
                    variant="outline"
                    aria-label={`${entry.invitedAt ? 'Invite again' : 'Invite'} ${entry.email}`}
                    disabled={invite.isPending}
                    onClick={() => invite.mutate(entry.email)}
                  >
                    {invite.isPending && invite.variables === entry.email
                      ? 'Sending...'
                      : entry.invitedAt
                        ? 'Invite again'
                        : 'Invite'}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  )
}
