// The Loris eco model as this server measured it (GET /api/impact/local-eco): a rolling median
// per generated token over its recent replies, shown beside the method's estimates.
import { useQuery } from '@tanstack/react-query'
import type { LocalEcoFigures as Figures } from '#contract/eco-engine.ts'

const PER = 1_000

function methodText(method: Figures['method']) {
  if (method === 'measured') return "measured with the processor's energy counters (RAPL)"
  return 'estimated from the processor time used (CPU seconds x power per core)'
}

export function LocalEcoFigures() {
  const { data } = useQuery<Figures>({ queryKey: ['/api/impact/local-eco'] })
  if (!data || (!data.inProcess && data.samples === 0)) return null
  return (
    <div className="rounded-lg border bg-card p-5" data-testid="local-eco-figures">
      <h3 className="font-semibold">{data.model}, measured on this server</h3>
      {data.samples === 0 || data.energyKwhPerToken === null || data.gco2eqPerToken === null ? (
        <p className="mt-2 text-sm text-zinc-300">
          No eco reply has been measured here yet. The figures appear after the first one.
        </p>
      ) : (
        <>
          <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-zinc-400">Energy per {PER.toLocaleString('en-US')} tokens</dt>
              <dd className="text-lg font-semibold">
                {(data.energyKwhPerToken * PER * 1000).toPrecision(3)} Wh
              </dd>
            </div>
            <div>
              <dt className="text-zinc-400">
                CO2 per {PER.toLocaleString('en-US')} tokens ({data.zone})
              </dt>
              <dd className="text-lg font-semibold">{(data.gco2eqPerToken * PER).toPrecision(3)} g CO2e</dd>
            </div>
          </dl>
          <p className="mt-3 text-xs text-zinc-400">
            Median over the last {data.samples} {data.samples === 1 ? 'reply' : 'replies'},{' '}
            {methodText(data.method)}.
          </p>
        </>
      )}
    </div>
  )
}
