import { type FormEvent, useId, useState } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import { Input } from '#client/components/ui/input.tsx'
import { type PeopleFilters, usePeople } from '../api/get-people.ts'
import { Field, selectClass } from './field.tsx'
import { PersonCard } from './person-card.tsx'
import { QueryState, ShowMore } from './query-state.tsx'

/** People: found by e-mail, plan, when they joined and whether they were active lately. */
export function PeopleTab({ selfId }: { selfId: string }) {
  const id = useId()
  const [filters, setFilters] = useState<PeopleFilters>({})
  const people = usePeople(filters)
  const search = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    const text = (name: string) => String(form.get(name) ?? '').trim() || undefined
    const plan = text('plan')
    setFilters({
      q: text('q'),
      plan: plan === 'free' || plan === 'premium' ? plan : undefined,
      createdFrom: text('createdFrom'),
      createdTo: text('createdTo'),
      activeFrom: text('activeFrom'),
    })
  }
  const list = people.data?.pages.flatMap((p) => p.people) ?? []
  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-6">
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        People
      </h2>
      <form
        aria-label="Find people"
        onSubmit={search}
        className="grid grid-cols-2 items-end gap-4 lg:grid-cols-[2fr_1fr_1fr_1fr_1fr_auto]"
      >
        <Field id={`${id}-q`} label="E-mail contains" className="col-span-2 lg:col-span-1">
          <Input id={`${id}-q`} name="q" type="search" autoComplete="off" maxLength={254} />
        </Field>
        <Field id={`${id}-plan`} label="Plan">
          <select id={`${id}-plan`} name="plan" className={selectClass} defaultValue="">
            <option value="">Any plan</option>
            <option value="free">Free</option>
            <option value="premium">Premium</option>
          </select>
        </Field>
        <Field id={`${id}-active`} label="Active since">
          <Input id={`${id}-active`} name="activeFrom" type="date" />
        </Field>
        <Field id={`${id}-from`} label="Joined from">
          <Input id={`${id}-from`} name="createdFrom" type="date" />
        </Field>
        <Field id={`${id}-to`} label="Joined until">
          <Input id={`${id}-to`} name="createdTo" type="date" />
        </Field>
        <Button type="submit" className="col-span-2 lg:col-span-1">
          Search
        </Button>
      </form>
      <QueryState
        query={people}
        loading="Loading people"
        failed="The list of people could not be loaded"
        empty={list.length === 0 && 'Nobody matches this search.'}
      >
        {() => (
          <>
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {list.length === 1 ? '1 person' : `${list.length} people`}
              {people.hasNextPage ? ' shown so far' : ''}
            </p>
            <ul className="grid gap-3" aria-label="People">
              {list.map((person) => (
                <li key={person.id}>
                  <PersonCard person={person} self={person.id === selfId} />
                </li>
              ))}
            </ul>
            <ShowMore query={people} label="Show more people" />
          </>
        )}
      </QueryState>
    </section>
  )
}
