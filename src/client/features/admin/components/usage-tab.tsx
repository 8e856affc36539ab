import { type FormEvent, useId, useState } from 'react'
import { Button } from '#client/components/ui/button.tsx'
import { Input } from '#client/components/ui/input.tsx'
import { formatEnergy, formatGrams, formatWater } from '#client/lib/impact-format.ts'
import type { UsageFigures } from '#contract/admin.ts'
import { type UsageRange, usageUrl, useUsage } from '../api/get-usage.ts'
import { utcDay } from '../lib/dates.ts'
import { CsvLink, Field, selectClass } from './field.tsx'
import { QueryState } from './query-state.tsx'
import { UsageChart } from './usage-chart.tsx'

const count = (n: number) => n.toLocaleString('en-US')

/** The service's replies, tokens, characters and impact over a range, by day, model or plan. */
export function UsageTab() {
  const id = useId()
  const [range, setRange] = useState<UsageRange>(() => ({ from: utcDay(29), to: utcDay(0), by: 'day' }))
  const usage = useUsage(range)
  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    const by = String(form.get('by'))
    setRange({
      from: String(form.get('from')),
      to: String(form.get('to')),
      by: by === 'model' || by === 'plan' ? by : 'day',
    })
  }
  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          Usage and impact
        </h2>
        <CsvLink href={usageUrl(range, 'csv')}>Export CSV</CsvLink>
      </div>
      <form
        onSubmit={apply}
        aria-label="Usage report range"
        className="grid gap-4 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end"
      >
        <Field id={`${id}-from`} label="From (UTC)">
          <Input id={`${id}-from`} name="from" type="date" defaultValue={range.from} required />
        </Field>
        <Field id={`${id}-to`} label="To (UTC)">
          <Input id={`${id}-to`} name="to" type="date" defaultValue={range.to} required />
        </Field>
        <Field id={`${id}-by`} label="Group by">
          <select id={`${id}-by`} name="by" className={selectClass} defaultValue={range.by}>
            <option value="day">Day</option>
            <option value="model">Model</option>
            <option value="plan">Plan</option>
          </select>
        </Field>
        <Button type="submit">Show</Button>
      </form>
      <QueryState query={usage} loading="Loading usage" failed="The usage report could not be loaded">
        {(report) => (
          <>
            <Totals totals={report.totals} monthEmitted={report.monthEmitted} />
            <UsageChart report={report} />
          </>
        )}
      </QueryState>
    </section>
  )
}

function Totals({ totals, monthEmitted }: { totals: UsageFigures; monthEmitted: number }) {
  const figures = [
    ['Replies', count(totals.replies)],
    ['Tokens', `${count(totals.inputTokens)} in, ${count(totals.outputTokens)} out`],
    ['Characters', `${count(totals.inputChars)} in, ${count(totals.outputChars)} out`],
    ['CO2 emitted', formatGrams(totals.co2Emitted)],
    ['CO2 saved', formatGrams(totals.co2Saved)],
    ['Energy', formatEnergy(totals.energyWh)],
    ['Water', formatWater(totals.waterL)],
    ['Emitted this month (UTC)', formatGrams(monthEmitted)],
  ] as const
  return (
    <dl aria-label="Totals for the range" className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {figures.map(([label, value]) => (
        <div key={label} className="grid gap-1 rounded-lg border bg-card p-3">
          <dt className="text-xs text-muted-foreground">{label}</dt>
          <dd className="text-base font-semibold">{value}</dd>
        </div>
      ))}
    </dl>
  )
}
