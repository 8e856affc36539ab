// The app's bar charts (a person's daily impact, the operators' usage): a switch choosing the one
// metric shown, and bars drawn in the dark theme's colours. The drawing is one image to assistive
// tech; each chart names it with a summary and gives its figures in a table.
import type { ReactNode } from 'react'
import { BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { cn } from '#client/lib/cn.ts'

/** A group of toggle buttons, one pressed: which metric the chart shows. */
export function MetricSwitch<T extends string>({
  metrics,
  value,
  onChange,
  itemClassName,
}: {
  metrics: readonly { id: T; label: string }[]
  value: T
  onChange: (metric: T) => void
  itemClassName?: string
}) {
  return (
    <fieldset className="flex flex-wrap gap-1 justify-self-start rounded-md border p-0.5">
      <legend className="sr-only">Chart shows</legend>
      {metrics.map((m) => (
        <button
          key={m.id}
          type="button"
          aria-pressed={value === m.id}
          onClick={() => onChange(m.id)}
          className={cn(
            'rounded px-3 py-1 text-xs hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring aria-pressed:bg-secondary aria-pressed:text-foreground',
            itemClassName,
          )}
        >
          {m.label}
        </button>
      ))}
    </fieldset>
  )
}

/** Bars over one category axis (days, models, plans), with the axes, grid, tooltip and legend. */
export function MetricBars<Row extends object>({
  data,
  xKey,
  xFormat,
  minTickGap,
  yFormat,
  valueFormat,
  children,
}: {
  data: readonly Row[]
  xKey: string
  xFormat?: (label: string) => string
  minTickGap: number
  yFormat: (value: number) => string
  valueFormat: (value: number) => string
  /** The recharts `Bar`s. */
  children: ReactNode
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart
        data={data as Row[]}
        accessibilityLayer={false}
        margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
      >
        <CartesianGrid strokeDasharray="3 3" stroke="#27272a" vertical={false} />
        <XAxis
          dataKey={xKey}
          tickFormatter={xFormat}
          tick={{ fill: '#a1a1aa', fontSize: 12 }}
          stroke="#3f3f46"
          minTickGap={minTickGap}
        />
        <YAxis tickFormatter={yFormat} tick={{ fill: '#a1a1aa', fontSize: 12 }} stroke="#3f3f46" width={64} />
        <Tooltip
          cursor={{ fill: 'rgba(255,255,255,0.04)' }}
          contentStyle={{ background: '#111113', border: '1px solid #27272a', borderRadius: 8 }}
          labelStyle={{ color: '#fafafa' }}
          labelFormatter={xFormat ? (label) => xFormat(String(label)) : undefined}
          formatter={(value) => valueFormat(Number(value))}
        />
        <Legend wrapperStyle={{ color: '#a1a1aa', fontSize: 12 }} />
        {children}
      </BarChart>
    </ResponsiveContainer>
  )
}
