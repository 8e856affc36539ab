import { type FormEvent, useId, useState } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import { Input } from '#client/components/ui/input.tsx'
import { errorText } from '#client/lib/api.ts'
import { type LimitsAnswer, useLimits, useSaveLimits } from '../api/limits.ts'
import { checkLimits, type Draft, draftOf, type Errors, FIELDS, PLANS } from '../lib/check-limits.ts'
import { Field } from './field.tsx'
import { QueryState } from './query-state.tsx'

/** Plan limits, kept in the database; Loris's own defaults are shown beside each. */
export function LimitsTab() {
  const id = useId()
  const limits = useLimits()
  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-6">
      <div className="grid gap-1">
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          Plan limits
        </h2>
        <p className="text-sm text-muted-foreground">
          Stored in the database and read by every server, so a change needs no restart. Until an operator
          saves them, Loris's own defaults apply.
        </p>
      </div>
      <QueryState query={limits} loading="Loading plan limits" failed="The plan limits could not be loaded">
        {(answer) => <LimitsForm answer={answer} />}
      </QueryState>
    </section>
  )
}

function LimitsForm({ answer }: { answer: LimitsAnswer }) {
  const id = useId()
  const save = useSaveLimits()
  const [draft, setDraft] = useState<Draft>(() => draftOf(answer))
  const [errors, setErrors] = useState<Errors>({})
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const checked = checkLimits(draft)
    if ('errors' in checked) {
      setErrors(checked.errors)
      // The first field in error takes focus, so its message is read out.
      const first = Object.keys(checked.errors)[0]?.replace('.', '-')
      if (first) document.getElementById(`${id}-${first}`)?.focus()
      return
    }
    setErrors({})
    save.mutate(checked.limits, { onSuccess: (saved) => setDraft(draftOf(saved)) })
  }
  return (
    <form onSubmit={submit} noValidate aria-label="Plan limits" className="grid gap-6">
      <div className="grid gap-6 md:grid-cols-2">
        {PLANS.map((plan) => (
          <fieldset key={plan.id} className="grid gap-4 rounded-lg border bg-card p-4">
            <legend className="px-1 text-base font-semibold">{plan.label}</legend>
            {FIELDS.map((f) => {
              const fieldId = `${id}-${plan.id}-${f.id}`
              const error = errors[`${plan.id}.${f.id}`]
              return (
                <Field
                  key={f.id}
                  id={fieldId}
                  label={f.label}
                  hint={`Default: ${answer.defaults[plan.id][f.id].toLocaleString('en-US')}`}
                  error={error}
                >
                  <Input
                    id={fieldId}
                    inputMode="numeric"
                    autoComplete="off"
                    value={draft[plan.id][f.id]}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={`${fieldId}-hint${error ? ` ${fieldId}-error` : ''}`}
                    onChange={(e) =>
                      setDraft((d) => ({ ...d, [plan.id]: { ...d[plan.id], [f.id]: e.target.value } }))
                    }
                  />
                </Field>
              )
            })}
          </fieldset>
        ))}
      </div>
      {save.isError ? (
        <p role="alert" className="text-sm text-red-400">
          {errorText(save.error, 'The plan limits could not be saved. Try again.')}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save limits'}
        </Button>
        <Button
          type="button"
          variant="outline"
          onClick={() => {
            setErrors({})
            setDraft(draftOf(answer.defaults))
          }}
        >
          Fill in the defaults
        </Button>
      </div>
    </form>
  )
}
