import { useImpactEstimates } from '#client/features/impact/api/get-impact-estimates.ts'
import { useLocalEco } from '#client/features/impact/api/get-local-eco.ts'
import { errorText } from '#client/lib/api.ts'
import { cn } from '#client/lib/cn.ts'
import { formatEnergy, formatRange, formatRangeWith, formatWater } from '#client/lib/impact-format.ts'
import type { LocalEcoFigures } from '#contract/eco-engine.ts'
import { type CatalogueModel, MODEL_WARNING_TEXT, type ModelWarning } from '#contract/impact.ts'

const midpoint = (r: { min: number; max: number }) => (r.min + r.max) / 2

type Zone = { code: string; label: string; kgCo2eqPerKwh: number; wueLPerKwh: number }

/**
 * The Loris eco model, measured on this server, then one row per chosen model: energy, water and
 * emissions ranges side by side, a bar for the emissions midpoint (decoration only), and each
 * model's EcoLogits warnings in words.
 */
export function EstimatesTable({
  models,
  catalogue,
  zones,
  standardModel,
  outputTokens,
  zone,
}: {
  models: readonly string[]
  catalogue: readonly CatalogueModel[]
  zones: readonly Zone[]
  standardModel: string
  outputTokens: number
  zone?: string
}) {
  const results = useImpactEstimates(models, outputTokens, zone)
  const eco = useLocalEco()
  const ecoRow = eco.data ? ecoFigures(eco.data, outputTokens, zones) : null
  const largest = Math.max(
    0,
    ecoRow?.gco2eq ?? 0,
    ...results.map((r) => (r.data ? r.data.actual.gco2eq.max : 0)),
  )
  const failed = results.find((r) => r.isError)
  const loading = results.some((r) => r.isFetching)
  // Every answer carries the same standard estimate (gpt-4o, world mix); any one will do.
  const standard = results.find((r) => r.data)?.data?.standard
  const warningsOf = new Map(catalogue.map((m) => [m.name, m.warnings]))
  return (
    <div className="grid min-w-0 gap-2">
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" aria-busy={loading} data-testid="estimates-table">
          <caption className="mb-3 text-left text-sm text-muted-foreground">
            Estimated energy, water and emissions of one {outputTokens.toLocaleString('en-US')}-token answer
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
                Water
              </th>
              <th scope="col" className="py-2 pr-3 font-medium">
                Emissions
              </th>
              <th scope="col" className="hidden w-1/5 py-2 font-medium md:table-cell">
                <span className="sr-only">Emissions, as bars</span>
              </th>
            </tr>
          </thead>
          <tbody>
            <tr className="border-b bg-primary/5" data-model="loris-eco">
              <th scope="row" className="py-2 pr-3 font-medium">
                {eco.data?.model ?? 'Loris eco'}
                <span className="ml-2 rounded bg-secondary px-1.5 py-0.5 text-xs font-normal text-muted-foreground">
                  {ecoRow ? `${ecoRow.method}, ${ecoRow.samples} replies` : 'measured on our server'}
                </span>
              </th>
              {ecoRow ? (
                <>
                  <td className="py-2 pr-3 tabular-nums" data-testid="energy">
                    {formatEnergy(ecoRow.energyWh)}
                  </td>
                  <td className="py-2 pr-3 tabular-nums" data-testid="water">
                    {ecoRow.waterL === null ? '—' : formatWater(ecoRow.waterL)}
                  </td>
                  <td className="py-2 pr-3 tabular-nums" data-testid="emissions">
                    {formatRange({ min: ecoRow.gco2eq, max: ecoRow.gco2eq }, 'gCO2e')}
                  </td>
                  <td className="hidden py-2 md:table-cell" aria-hidden="true">
                    {largest > 0 ? (
                      <Bar
                        min={ecoRow.gco2eq / largest}
                        mid={ecoRow.gco2eq / largest}
                        max={ecoRow.gco2eq / largest}
                      />
                    ) : null}
                  </td>
                </>
              ) : (
                <td colSpan={4} className="py-2 pr-3 text-muted-foreground" data-testid="eco-status">
                  {eco.isPending
                    ? 'Loading…'
                    : 'Not measured yet: the figures appear once the eco model has answered here.'}
                </td>
              )}
            </tr>
            {models.map((model, i) => {
              const data = results[i]?.data
              const g = data?.actual.gco2eq
              const warnings = data?.actual.warnings ?? warningsOf.get(model) ?? []
              // The last figures stand while the new ones load, faded once the wait is noticeable.
              const figure = cn(
                'py-2 pr-3 align-top tabular-nums transition-opacity',
                results[i]?.isPlaceholderData && 'opacity-50 delay-200',
              )
              return (
                <tr
                  key={model}
                  className="border-b last:border-0"
                  data-model={model}
                  aria-busy={results[i]?.isPlaceholderData}
                >
                  <th scope="row" className="py-2 pr-3 align-top font-medium">
                    {model}
                    {model === standardModel ? (
                      <span className="ml-2 rounded bg-secondary px-1.5 py-0.5 text-xs font-normal text-muted-foreground">
                        standard model
                      </span>
                    ) : null}
                    <Warnings warnings={warnings} />
                  </th>
                  <td className={figure} data-testid="energy">
                    {data ? formatRange(data.actual.energyWh, 'Wh') : '…'}
                  </td>
                  <td className={figure} data-testid="water">
                    {data ? formatRangeWith(data.actual.waterL, formatWater) : '…'}
                  </td>
                  <td className={figure} data-testid="emissions">
                    {g ? formatRange(g, 'gCO2e') : '…'}
                  </td>
                  <td className="hidden py-2 align-top md:table-cell" aria-hidden="true">
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
      <p className="text-xs text-muted-foreground">
        Water counts the provider's data-centre cooling and the water behind the electricity (EcoLogits' usage
        water footprint). Loris eco is measured on the machine that runs it, in its own zone; its water is the
        electricity's only.
      </p>
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

function Warnings({ warnings }: { warnings: readonly ModelWarning[] }) {
  if (warnings.length === 0) return null
  return (
    <ul className="mt-1 grid gap-0.5 text-xs font-normal text-amber-300" data-testid="warnings">
      {warnings.map((w) => (
        <li key={w}>{MODEL_WARNING_TEXT[w]}</li>
      ))}
    </ul>
  )
}

/** The eco engine's medians per token, for this answer; null until it has measured a reply. */
export function ecoFigures(figures: LocalEcoFigures, outputTokens: number, zones: readonly Zone[]) {
  if (figures.energyKwhPerToken === null || figures.gco2eqPerToken === null || figures.method === null) {
    return null
  }
  const kwh = figures.energyKwhPerToken * outputTokens
  const wue = zones.find((z) => z.code === figures.zone)?.wueLPerKwh
  return {
    method: figures.method,
    samples: figures.samples,
    energyWh: kwh * 1000,
    gco2eq: figures.gco2eqPerToken * outputTokens,
    waterL: wue === undefined ? null : kwh * wue,
  }
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
