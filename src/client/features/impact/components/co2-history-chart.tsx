import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { Spinner } from '#client/components/ui/spinner.tsx'
import { errorText } from '#client/lib/api.ts'
import type { Co2HistoryDay } from '#contract/impact.ts'
import { useCo2History } from '../api/get-co2-history.ts'
import { formatGrams, formatSmall } from '../lib/format.ts'
import { dayLabel, historySummary } from '../lib/history-summary.ts'

const SAVED = '#10b981'
const EMITTED = '#f59e0b'

/**
 * Daily grams saved vs emitted. The drawing is one image to assistive tech (role img + a one-line
 * summary); the numbers themselves are in a visually hidden table after it.
 */
export function Co2HistoryChart({ days = 30 }: { days?: number }) {
  const history = useCo2History(days)
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
  const summary = historySummary(data)
  const empty = data.every((d) => d.messages === 0)
  return (
    <figure className="grid gap-3" data-testid="co2-history">
      <div role="img" aria-label={summary} className="relative h-60 w-full">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#27272a" vertical={false} />
            <XAxis
              dataKey="date"
              tickFormatter={dayLabel}
              tick={{ fill: '#a1a1aa', fontSize: 12 }}
              stroke="#3f3f46"
              minTickGap={24}
            />
            <YAxis
              tickFormatter={(g: number) => `${formatSmall(g)} g`}
              tick={{ fill: '#a1a1aa', fontSize: 12 }}
              stroke="#3f3f46"
              width={64}
            />
            <Tooltip
              cursor={{ fill: 'rgba(255,255,255,0.04)' }}
              contentStyle={{ background: '#111113', border: '1px solid #27272a', borderRadius: 8 }}
              labelStyle={{ color: '#fafafa' }}
              labelFormatter={(label) => dayLabel(String(label))}
              formatter={(value) => formatGrams(Number(value))}
            />
            <Legend wrapperStyle={{ color: '#a1a1aa', fontSize: 12 }} />
            <Bar dataKey="saved" name="CO2 saved" fill={SAVED} radius={[3, 3, 0, 0]} />
            <Bar dataKey="actual" name="CO2 emitted" fill={EMITTED} radius={[3, 3, 0, 0]} />
          </BarChart>
        </ResponsiveContainer>
        {empty ? (
          <p className="absolute inset-0 flex items-center justify-center text-sm text-muted-foreground">
            Your daily impact shows here once you send a message.
          </p>
        ) : null}
      </div>
      <figcaption className="text-xs text-muted-foreground">
        Grams of CO2e per day (UTC), midpoints of each reply's estimate.
      </figcaption>
      <HistoryTable days={data} />
    </figure>
  )
}

function HistoryTable({ days }: { days: readonly Co2HistoryDay[] }) {
  return (
    <table className="sr-only">
      <caption>Daily CO2 saved and emitted</caption>
      <thead>
        <tr>
          <th scope="col">Day</th>
          <th scope="col">CO2 saved</th>
          <th scope="col">CO2 emitted</th>
          <th scope="col">Replies</th>
        </tr>
      </thead>
      <tbody>
        {days.map((d) => (
          <tr key={d.date}>
            <th scope="row">{dayLabel(d.date)}</th>
            <td>{formatGrams(d.saved)}</td>
            <td>{formatGrams(d.actual)}</td>
            <td>{d.messages}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
