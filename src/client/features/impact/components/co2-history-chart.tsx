import { useState } from 'react'
import { Bar } from 'recharts'
import { MetricBars, MetricSwitch } from '#client/components/metric-chart.tsx'
import { Spinner } from '#client/components/ui/spinner.tsx'
import { errorText } from '#client/lib/api.ts'
import { formatGrams, formatImpact, impactAxis } from '#client/lib/impact-format.ts'
import type { Co2HistoryDay } from '#contract/impact.ts'
import { useCo2History } from '../api/get-co2-history.ts'
import { dayLabel, type HistoryMetric, historySummary, historyTotals } from '../lib/history-summary.ts'
import { TREE_SOURCE, treesAbsorb, treesPlanted } from '../lib/trees.ts'

const SAVED = '#10b981'
const EMITTED = '#71717a'
const ENERGY = '#eab308'
const WATER = '#38bdf8'

const METRICS: { id: HistoryMetric; label: string }[] = [
  { id: 'co2', label: 'CO2' },
  { id: 'energy', label: 'Energy' },
  { id: 'water', label: 'Water' },
]

/**
 * Daily grams saved and emitted, or energy, or water, one at a time (a switch above the chart).
 * For CO2 the figure opens with the story the numbers tell together: the CO2 saved against a
 * standard model first, what the models emitted beside it, and the trees planted with what they
 * absorb and where that figure comes from; each day's bar is the standard model's emissions,
 * split into what was emitted and what was saved. The drawing is one image to assistive tech
 * (role img + a one-line summary); the numbers themselves are in a visually hidden table after it.
 */
export function Co2HistoryChart({ days = 30, trees }: { days?: number; trees: number }) {
  const history = useCo2History(days)
  const [metric, setMetric] = useState<HistoryMetric>('co2')
  if (history.isPending) {
    return (
      <div className="flex h-60 items-center justify-center">
        <Spinner label="Loading CO2 history" />
      </div>
    )
  }
  if (history.isError) {
    return (
      <p role="alert" className="text-sm text-destructive-foreground">
        {errorText(history.error, 'Failed to load the CO2 history')}
      </p>
    )
  }
  const data = history.data.days
  const summary = historySummary(data, metric)
  const empty = data.every((d) => d.messages === 0)
  const format = formatImpact[metric]
  return (
    <figure className="grid gap-3" data-testid="co2-history">
      {metric === 'co2' ? <Co2Headline days={data} trees={trees} /> : null}
      <MetricSwitch metrics={METRICS} value={metric} onChange={setMetric} />
      <div role="img" aria-label={summary} className="relative h-60 w-full">
        <MetricBars
          data={data}
          xKey="date"
          xFormat={dayLabel}
          minTickGap={24}
          yFormat={impactAxis[metric]}
          valueFormat={format}
        >
          {metric === 'co2' ? (
            <>
              <Bar dataKey="actual" name="CO2 emitted" stackId="co2" fill={EMITTED} />
              <Bar dataKey="saved" name="CO2 saved" stackId="co2" fill={SAVED} radius={[3, 3, 0, 0]} />
            </>
          ) : metric === 'energy' ? (
            <Bar dataKey="energyWh" name="Energy used" fill={ENERGY} radius={[3, 3, 0, 0]} />
          ) : (
            <Bar dataKey="waterL" name="Water used" fill={WATER} radius={[3, 3, 0, 0]} />
          )}
        </MetricBars>
        {empty ? (
          <p className="absolute inset-0 flex items-center justify-center text-sm text-muted-foreground">
            Your daily impact shows here once you send a message.
          </p>
        ) : null}
      </div>
      <figcaption className="text-xs text-muted-foreground">
        {
          {
            co2: "Grams of CO2e per day (UTC), midpoints of each reply's estimate. Each bar is what a standard model would have emitted: the green part saved, the grey part emitted.",
            energy:
              "Watt-hours per day (UTC), midpoints of each reply's estimate, data-centre overhead included.",
            water:
              'Millilitres of water per day (UTC): cooling plus the water behind the electricity, midpoints.',
          }[metric]
        }
      </figcaption>
      {metric === 'co2' ? (
        <HistoryTable days={data} />
      ) : (
        <UseTable days={data} metric={metric} format={format} />
      )}
    </figure>
  )
}

/** Saved as the headline, emitted beside it, the trees and what they absorb (with its source). */
function Co2Headline({ days, trees }: { days: readonly Co2HistoryDay[]; trees: number }) {
  const totals = historyTotals(days)
  return (
    <div className="grid gap-4 sm:grid-cols-3 sm:items-start">
      <p data-testid="history-saved" className="grid">
        <span className="text-3xl font-semibold tabular-nums text-emerald-400">
          {formatGrams(totals.saved)}
        </span>
        <span className="text-sm text-muted-foreground">CO2 saved against a standard model</span>
      </p>
      <p data-testid="history-emitted" className="grid">
        <span className="text-xl font-medium tabular-nums">{formatGrams(totals.actual)}</span>
        <span className="text-sm text-muted-foreground">CO2 emitted by the models that answered</span>
      </p>
      <p data-testid="history-trees" className="grid text-sm">
        <span className="text-base font-medium">{treesPlanted(trees)}</span>
        {trees > 0 ? (
          <span className="text-muted-foreground">
            {treesAbsorb(trees)} (
            <a
              href={TREE_SOURCE.url}
              target="_blank"
              rel="noopener noreferrer"
              className="text-primary underline underline-offset-2"
            >
              {TREE_SOURCE.name}
            </a>
            )
          </span>
        ) : (
          <span className="text-muted-foreground">One for every second message you send</span>
        )}
      </p>
    </div>
  )
}

function UseTable({
  days,
  metric,
  format,
}: {
  days: readonly Co2HistoryDay[]
  metric: 'energy' | 'water'
  format: (x: number) => string
}) {
  return (
    <DaysTable
      caption={`Daily ${metric} used`}
      columns={[metric === 'energy' ? 'Energy used' : 'Water used']}
      days={days}
      cells={(d) => [format(metric === 'energy' ? d.energyWh : d.waterL)]}
    />
  )
}

function HistoryTable({ days }: { days: readonly Co2HistoryDay[] }) {
  return (
    <DaysTable
      caption="Daily CO2 saved and emitted"
      columns={['CO2 saved', 'CO2 emitted']}
      days={days}
      cells={(d) => [formatGrams(d.saved), formatGrams(d.actual)]}
    />
  )
}

/** The chart's figures for screen readers: a row a day, its replies last. */
function DaysTable({
  caption,
  columns,
  days,
  cells,
}: {
  caption: string
  columns: string[]
  days: readonly Co2HistoryDay[]
  cells: (day: Co2HistoryDay) => string[]
}) {
  return (
    <table className="sr-only">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Day</th>
          {columns.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
          <th scope="col">Replies</th>
        </tr>
      </thead>
      <tbody>
        {days.map((d) => (
          <tr key={d.date}>
            <th scope="row">{dayLabel(d.date)}</th>
            {cells(d).map((cell, i) => (
              <td key={columns[i]}>{cell}</td>
            ))}
            <td>{d.messages}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
