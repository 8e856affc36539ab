import { useImpactEstimates } from '#client/features/impact/api/get-impact-estimates.ts'
import { formatRange } from '#client/features/impact/lib/format.ts'
import { errorText } from '#client/lib/api.ts'

const midpoint = (r: { min: number; max: number }) => (r.min + r.max) / 2

/** One row per model: energy and emissions ranges, with a bar for the midpoint (decoration only). */
export function EstimatesTable({
  models,
  standardModel,
  outputTokens,
  zone,
}: {
  models: readonly string[]
  standardModel: string
  outputTokens: number
  zone?: string
}) {
  const results = useImpactEstimates(models, outputTokens, zone)
  const largest = Math.max(0, ...results.map((r) => (r.data ? r.data.actual.gco2eq.max : 0)))
  const failed = results.find((r) => r.isError)
  const loading = results.some((r) => r.isFetching)
  // Every answer carries the same standard estimate (gpt-4o, world mix); any one will do.
  const standard = results.find((r) => r.data)?.data?.standard
  return (
    <div className="grid min-w-0 gap-2">
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" aria-busy={loading} data-testid="estimates-table">
          <caption className="mb-3 text-left text-sm text-muted-foreground">
            Estimated energy and emissions of one {outputTokens.toLocaleString('en-US')}-token answer
            {zone ? ` in ${zone}` : ''}, low to high estimate
          </caption>
          <thead className="text-xs uppercase tracking-wide text-muted-foreground">
            <tr className="border-b">
              <th scope="col" className="py-2 pr-3 font-medium">
                Model
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                Energy
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                Emissions
              </th>
              <th scope="col" className="hidden w-1/4 py-2 font-medium sm:table-cell">
                <span className="sr-only">Emissions, as bars</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {models.map((model, i) => {
              const data = results[i]?.data
              const g = data?.actual.gco2eq
              return (
                <tr key={model} className="border-b last:border-0" data-model={model}>
                  <th scope="row" className="py-2 pr-3 font-medium">
                    {model}
                    {model === standardModel ? (
                      <span className="ml-2 rounded bg-secondary px-1.5 py-0.5 text-xs font-normal text-muted-foreground">
                        standard model
                      </span>
                    ) : null}
                  </th>
                  <td className="py-2 pr-3 tabular-nums" data-testid="energy">
                    {data ? formatRange(data.actual.energyWh, 'Wh') : '…'}
                  </td>
                  <td className="py-2 pr-3 tabular-nums" data-testid="emissions">
                    {g ? formatRange(g, 'gCO2e') : '…'}
                  </td>
                  <td className="hidden py-2 sm:table-cell" aria-hidden="true">
                    {g && largest > 0 ? (
                      <Bar min={g.min / largest} mid={midpoint(g) / largest} max={g.max / largest} />
                    ) : null}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
      {standard ? (
        <p className="text-sm text-muted-foreground" data-testid="standard-line">
          Savings are counted against the standard reference, {standardModel} at OpenAI on the world average
          mix: {formatRange(standard.gco2eq, 'gCO2e')} for this answer.
        </p>
      ) : null}
      {failed ? (
        <p role="alert" className="text-sm text-red-400">
          {errorText(failed.error, 'Failed to estimate')}
        </p>
      ) : null}
    </div>
  )
}

/** The midpoint as a filled bar, the low-to-high range as a faint band around its end. */
function Bar({ min, mid, max }: { min: number; mid: number; max: number }) {
  const pct = (x: number) => `${Math.max(0.5, x * 100)}%`
  return (
    <div className="relative h-2.5 w-full rounded-full bg-secondary">
      <div
        className="absolute inset-y-0 rounded-full bg-primary/25"
        style={{ left: pct(min), width: `calc(${pct(max)} - ${pct(min)})` }}
      />
      <div className="absolute inset-y-0 left-0 rounded-full bg-primary" style={{ width: pct(mid) }} />
    </div>
  )
}
