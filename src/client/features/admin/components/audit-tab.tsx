import { useId } from 'react'
import { useAudit } from '../api/get-audit.ts'
import { dateTime } from '../lib/dates.ts'
import { limitsChange } from '../lib/limits-change.ts'
import { CsvLink } from './field.tsx'
import { QueryState, ShowMore } from './query-state.tsx'

const ACTIONS: Record<string, string> = {
  suspend: 'Suspended',
  restore: 'Restored',
  'grant-operator': 'Made operator',
  'remove-operator': 'Removed operator',
  delete: 'Deleted account',
  invite: 'Invited',
  limits: 'Changed plan limits',
}

/** Every operator action, newest first: who, what, to whom, when. Nothing here can be edited. */
export function AuditTab() {
  const id = useId()
  const audit = useAudit()
  const entries = audit.data?.pages.flatMap((p) => p.entries) ?? []
  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          Audit log
        </h2>
        <CsvLink href="/api/admin/audit?format=csv">Export CSV</CsvLink>
      </div>
      <QueryState
        query={audit}
        loading="Loading the audit log"
        failed="The audit log could not be loaded"
        empty={entries.length === 0 && 'No operator has acted yet.'}
      >
        {() => (
          <>
            <ol className="grid gap-2" aria-label="Operator actions, newest first">
              {entries.map((e) => (
                <li key={e.id} className="grid gap-1 rounded-lg border bg-card p-3 text-sm">
                  <p>
                    <span className="font-medium">{ACTIONS[e.action] ?? e.action}</span>
                    {/* A change of limits is about the plans, which its detail names. */}
                    {e.action === 'limits' ? null : <span className="break-all"> {e.target}</span>}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    <span className="break-all">by {e.actorEmail}</span>,{' '}
                    <time dateTime={e.at}>{dateTime(e.at)}</time>
                  </p>
                  {e.detail ? <Detail detail={e.detail} /> : null}
                </li>
              ))}
            </ol>
            <ShowMore query={audit} label="Show older actions" />
          </>
        )}
      </QueryState>
    </section>
  )
}

/** What an action changed, as the server recorded it (plan limits: each value before and after). */
function Detail({ detail }: { detail: Record<string, unknown> }) {
  const changes = limitsChange(detail)
  if (changes)
    return changes.length === 0 ? (
      <p className="text-xs text-muted-foreground">Saved with no change.</p>
    ) : (
      <ul className="list-disc pl-5 text-xs text-muted-foreground">
        {changes.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    )
  return (
    <pre className="overflow-x-auto whitespace-pre-wrap break-all rounded bg-muted p-2 text-xs text-muted-foreground">
      {JSON.stringify(detail)}
    </pre>
  )
}
