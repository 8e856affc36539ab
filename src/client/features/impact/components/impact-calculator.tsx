import { useEffect, useId, useState } from 'react'
import { Input } from '#client/components/ui/input.tsx'
import { Label } from '#client/components/ui/label.tsx'
import { Spinner } from '#client/components/ui/spinner.tsx'
import { useImpactCatalog } from '#client/features/impact/api/get-impact-catalog.ts'
import { useImpactModels } from '#client/features/impact/api/get-impact-models.ts'
import { errorText } from '#client/lib/api.ts'
import { MAX_ESTIMATE_TOKENS } from '#contract/impact.ts'
import { EstimatesTable } from './estimates-table.tsx'
import { ModelPicker } from './model-picker.tsx'

// The models Loris answers with (Gemini 2.5 Pro by default, Flash-Lite in eco mode without the
// eco engine, GPT-4o for ChatGPT mode); GPT-4o is also the standard reference.
const DEFAULT_MODELS = ['gemini-2.5-pro', 'gemini-2.5-flash-lite', 'gpt-4o']

const DEFAULT_TOKENS = 500
const PRESETS = [100, 500, 2000] as const
// Typing "2000" passes through 2, 20 and 200: wait for a pause before asking the server.
const SETTLE_MS = 300

/** 'What does a 500-token answer cost on each model?', priced by GET /api/impact/estimate. */
export function ImpactCalculator() {
  const catalog = useImpactCatalog()
  const models = useImpactModels()
  const [chosen, setChosen] = useState<string[]>(DEFAULT_MODELS)
  const [tokensText, setTokensText] = useState(String(DEFAULT_TOKENS))
  const [zone, setZone] = useState('')
  const tokens = parseTokens(tokensText)
  const settled = useSettled(tokens, SETTLE_MS)
  const tokensId = useId()
  const zoneId = useId()
  const hintId = useId()

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6 rounded-lg border bg-card p-5 sm:p-6">
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor={tokensId}>Answer length (output tokens)</Label>
          <Input
            id={tokensId}
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_ESTIMATE_TOKENS}
            step={1}
            value={tokensText}
            onChange={(e) => setTokensText(e.target.value)}
            aria-invalid={tokens === null}
            aria-describedby={hintId}
          />
          <p
            id={hintId}
            className={tokens === null ? 'text-xs text-red-400' : 'text-xs text-muted-foreground'}
          >
            {tokens === null
              ? `Enter a whole number from 0 to ${MAX_ESTIMATE_TOKENS.toLocaleString('en-US')}.`
              : 'About 4 characters of English each; a 500-token answer is a few paragraphs.'}
          </p>
          <fieldset className="flex flex-wrap gap-2">
            <legend className="sr-only">Common lengths</legend>
            {PRESETS.map((n) => (
              <button
                key={n}
                type="button"
                aria-pressed={tokens === n}
                onClick={() => setTokensText(String(n))}
                className="rounded-full border px-3 py-1 text-xs hover:bg-accent aria-pressed:border-primary aria-pressed:text-emerald-300"
              >
                {n.toLocaleString('en-US')} tokens
              </button>
            ))}
          </fieldset>
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor={zoneId}>Electricity</Label>
          <select
            id={zoneId}
            value={zone}
            onChange={(e) => setZone(e.target.value)}
            className="h-10 w-full rounded-md border border-input bg-background px-3 text-sm focus-visible:outline-2 focus-visible:outline-ring"
          >
            <option value="">Each provider's data centres (default)</option>
            {sortedZones(catalog.data?.zones).map((z) => (
              <option key={z.code} value={z.code}>
                {z.code === 'WOR' ? 'World average' : z.label} ({z.code}), {z.kgCo2eqPerKwh.toFixed(3)} kg/kWh
              </option>
            ))}
          </select>
          <p className="text-xs text-muted-foreground">
            By default each model runs where its provider's data centres are (most in the USA, Mistral AI in
            Sweden).
          </p>
        </div>
      </div>
      {catalog.isPending || models.isPending ? (
        <div className="flex justify-center py-8">
          <Spinner label="Loading the models" />
        </div>
      ) : catalog.isError || models.isError ? (
        <p role="alert" className="text-sm text-red-400">
          {errorText(catalog.error ?? models.error, 'Failed to load the models')}
        </p>
      ) : (
        <>
          <ModelPicker catalogue={models.data} chosen={chosen} onChange={setChosen} />
          <EstimatesTable
            models={chosen}
            catalogue={models.data.models}
            zones={catalog.data.zones}
            standardModel={catalog.data.standard.model}
            outputTokens={settled ?? DEFAULT_TOKENS}
            zone={zone || undefined}
          />
        </>
      )}
    </div>
  )
}

type Zone = { code: string; label: string; kgCo2eqPerKwh: number }

/** The world mix first (the standard reference uses it), then countries by name. */
function sortedZones(zones: readonly Zone[] = []): Zone[] {
  const world = zones.filter((z) => z.code === 'WOR')
  const rest = zones.filter((z) => z.code !== 'WOR').sort((a, b) => a.label.localeCompare(b.label))
  return [...world, ...rest]
}

function parseTokens(text: string): number | null {
  if (!/^\d+$/.test(text.trim())) return null
  const n = Number(text)
  return n <= MAX_ESTIMATE_TOKENS ? n : null
}

/** The last valid value once it has held still for `ms`; invalid input keeps the previous one. */
function useSettled(value: number | null, ms: number): number | null {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    if (value === null) return
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}
