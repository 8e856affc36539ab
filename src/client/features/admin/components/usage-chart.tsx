import { useState } from 'react'
import { Bar } from 'recharts'
import { MetricBars, MetricSwitch } from '#client/components/metric-chart.tsx'
import {
  formatEnergy,
  formatGrams,
  formatImpact,
  formatSmall,
  formatWater,
  impactAxis,
} from '#client/lib/impact-format.ts'
import type { AdminUsageResponse } from '#contract/admin.ts'

type Row = AdminUsageResponse['rows'][number]
type Metric = 'co2' | 'energy' | 'water' | 'replies'

const METRICS: { id: Metric; label: string }[] = [
  { id: 'co2', label: 'CO2' },
  { id: 'energy', label: 'Energy' },
  { id: 'water', label: 'Water' },
  { id: 'replies', label: 'Replies' },
]

const BARS: Record<Metric, { key: keyof Row; name: string; color: string }[]> = {
  co2: [
    { key: 'co2Saved', name: 'CO2 saved', color: '#10b981' },
    { key: 'co2Emitted', name: 'CO2 emitted', color: '#f59e0b' },
  ],
  energy: [{ key: 'energyWh', name: 'Energy used', color: '#eab308' }],
  water: [{ key: 'waterL', name: 'Water used', color: '#38bdf8' }],
  replies: [{ key: 'replies', name: 'Replies', color: '#a78bfa' }],
}

const FORMAT: Record<Metric, (x: number) => string> = {
  ...formatImpact,
  replies: (n) => n.toLocaleString('en-US'),
}

const AXIS: Record<Metric, (x: number) => string> = { ...impactAxis, replies: formatSmall }

const BY_LABEL = { day: 'Day (UTC)', model: 'Model', plan: 'Plan' } as const

/**
 * One metric at a time as bars per day, model or plan, drawn at once (no growing animation: the
 * figures are what an operator came for). The drawing is one image to assistive
 * tech; every figure is in the table below it, which a phone scrolls sideways.
 */
export function UsageChart({ report }: { report: AdminUsageResponse }) {
  const [metric, setMetric] = useState<Metric>('co2')
  const bars = BARS[metric]
  const summary =
    report.rows.length === 0
      ? 'No replies in this range.'
      : `${bars.map((b) => b.name).join(' and ')} by ${report.by} for ${report.rows.length} ${report.by === 'day' ? 'days' : 'groups'}: ${bars.map((b) => `${FORMAT[metric](Number(report.totals[b.key as keyof typeof report.totals]))} ${b.name.toLowerCase()}`).join(', ')} in all.`
  return (
    <figure className="grid gap-3" data-testid="usage-chart">
      <MetricSwitch metrics={METRICS} value={metric} onChange={setMetric} itemClassName="py-1.5" />
      <div role="img" aria-label={summary} className="relative h-64 w-full">
        {report.rows.length === 0 ? (
          <p className="flex h-full items-center justify-center text-sm text-muted-foreground">
            No replies in this range.
          </p>
        ) : (
          <MetricBars
            data={report.rows}
            xKey="key"
            minTickGap={16}
            yFormat={AXIS[metric]}
            valueFormat={FORMAT[metric]}
          >
            {bars.map((b) => (
              <Bar
                key={b.key}
                dataKey={b.key}
                name={b.name}
                fill={b.color}
                radius={[3, 3, 0, 0]}
                isAnimationActive={false}
              />
            ))}
          </MetricBars>
        )}
      </div>
      <figcaption className="text-xs text-muted-foreground">
        Midpoints of each reply's estimate; energy includes data-centre overhead.
      </figcaption>
      {report.rows.length > 0 ? <UsageTable report={report} /> : null}
    </figure>
  )
}

function UsageTable({ report }: { report: AdminUsageResponse }) {
  const n = (x: number) => x.toLocaleString('en-US')
  return (
    // A scrolled region is reachable from the keyboard, and named.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to scroll by keyboard
    <section tabIndex={0} aria-label="Usage figures" className="overflow-x-auto rounded-lg border">
      <table className="w-full text-left text-sm">
        <thead className="bg-muted text-xs text-muted-foreground">
          <tr>
            {[
              BY_LABEL[report.by],
              'Replies',
              'Tokens in',
              'Tokens out',
              'CO2 emitted',
              'CO2 saved',
              'Energy',
              'Water',
            ].map((h) => (
              <th key={h} scope="col" className="whitespace-nowrap px-3 py-2 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {report.rows.map((r) => (
            <tr key={r.key} className="border-t">
              <th scope="row" className="whitespace-nowrap px-3 py-2 font-medium">
                {r.key}
              </th>
              <td className="px-3 py-2">{n(r.replies)}</td>
              <td className="px-3 py-2">{n(r.inputTokens)}</td>
              <td className="px-3 py-2">{n(r.outputTokens)}</td>
              <td className="whitespace-nowrap px-3 py-2">{formatGrams(r.co2Emitted)}</td>
              <td className="whitespace-nowrap px-3 py-2">{formatGrams(r.co2Saved)}</td>
              <td className="whitespace-nowrap px-3 py-2">{formatEnergy(r.energyWh)}</td>
              <td className="whitespace-nowrap px-3 py-2">{formatWater(r.waterL)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
