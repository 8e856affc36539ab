import { formatGrams } from '#client/lib/impact-format.ts'
import type { AdminPerson } from '#contract/admin.ts'
import { dateOnly, dateTime } from '../lib/dates.ts'
import { PersonActions } from './person-actions.tsx'

const count = (n: number) => n.toLocaleString('en-US')

/** One person: who, their plan and state, what they used (never their messages), and actions. */
export function PersonCard({ person, self }: { person: AdminPerson; self: boolean }) {
  const tags = [
    person.plan === 'premium' ? 'Premium' : 'Free',
    person.operator ? (person.operator === 'config' ? 'Operator (ADMIN_EMAILS)' : 'Operator') : null,
    person.suspendedAt ? 'Suspended' : null,
    person.emailVerified ? null : 'E-mail not confirmed',
    self ? 'You' : null,
  ].filter((t): t is string => t !== null)
  return (
    <article
      aria-label={person.email}
      className="grid gap-3 rounded-lg border bg-card p-4 text-sm data-[suspended=true]:border-amber-700"
      data-suspended={person.suspendedAt !== null}
    >
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h3 className="break-all text-base font-semibold">{person.email}</h3>
        <ul className="flex flex-wrap gap-1.5" aria-label="Status">
          {tags.map((tag) => (
            <li key={tag} className="rounded-full bg-secondary px-2 py-0.5 text-xs">
              {tag}
            </li>
          ))}
        </ul>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-3 lg:grid-cols-6">
        <Stat label="Joined" value={dateOnly(person.createdAt)} />
        <Stat label="Last active" value={person.lastActiveAt ? dateTime(person.lastActiveAt) : 'Never'} />
        <Stat
          label="Characters this period"
          value={`${count(person.usage.inputChars)} in, ${count(person.usage.outputChars)} out`}
        />
        <Stat label="CO2 saved" value={formatGrams(person.co2SavedGrams)} />
        <Stat label="Trees" value={count(person.treesPlanted)} />
        <Stat label="Threads" value={count(person.threads)} />
      </dl>
      {person.suspendedAt ? (
        <p className="text-xs text-muted-foreground">Suspended on {dateTime(person.suspendedAt)}</p>
      ) : null}
      {self ? null : <PersonActions person={person} />}
    </article>
  )
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd>{value}</dd>
    </div>
  )
}
