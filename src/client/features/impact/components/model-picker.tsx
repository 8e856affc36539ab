import Plus from 'lucide-react/icons/plus'
import X from 'lucide-react/icons/x'
import { useMemo } from 'react'
import { Combobox, type ComboboxGroup } from '#client/components/ui/combobox.tsx'
import { formatSmall } from '#client/lib/impact-format.ts'
import type { CatalogueModel, ImpactModelsResponse } from '#contract/impact.ts'

/** More rows than this stop being a comparison (and each costs one estimate request per change). */
export const MAX_COMPARED = 8

/** '8 to 28 B' dense; 'MoE, 44 to 132 B active of 440 B' for a mixture of experts. */
export function parametersText(
  m: Pick<CatalogueModel, 'architecture' | 'totalParamsB' | 'activeParamsB'>,
): string {
  const range = (r: { min: number; max: number }) =>
    r.min === r.max ? `${formatSmall(r.min)} B` : `${formatSmall(r.min)} to ${formatSmall(r.max)} B`
  if (m.architecture === 'dense') return range(m.totalParamsB)
  return `MoE, ${range(m.activeParamsB)} active of ${range(m.totalParamsB)}`
}

/** The catalogue grouped by provider (providers by name, models in the catalogue's order). */
export function modelGroups(catalogue: ImpactModelsResponse, chosen: readonly string[]): ComboboxGroup[] {
  const labels = new Map(catalogue.providers.map((p) => [p.id, p.label]))
  const groups = new Map<
    string,
    ComboboxGroup & { options: { value: string; label: string; hint: string; disabled: boolean }[] }
  >()
  for (const m of catalogue.models) {
    const label = labels.get(m.provider) ?? m.provider
    const group = groups.get(label) ?? { label, options: [] }
    group.options.push({
      value: m.name,
      label: m.name,
      hint: parametersText(m),
      disabled: chosen.includes(m.name),
    })
    groups.set(label, group)
  }
  return [...groups.values()].sort((a, b) => a.label.localeCompare(b.label))
}

/** The models being compared, as removable chips, and the searchable picker that adds one. */
export function ModelPicker({
  catalogue,
  chosen,
  onChange,
}: {
  catalogue: ImpactModelsResponse
  chosen: readonly string[]
  onChange: (models: string[]) => void
}) {
  const groups = useMemo(() => modelGroups(catalogue, chosen), [catalogue, chosen])
  const full = chosen.length >= MAX_COMPARED
  return (
    <div className="grid gap-2">
      <ul className="flex flex-wrap items-center gap-2" aria-label="Models compared">
        {chosen.map((name) => (
          <li
            key={name}
            className="inline-flex items-center gap-1 rounded-full border bg-secondary py-0.5 pr-1 pl-3 text-xs"
          >
            {name}
            <button
              type="button"
              aria-label={`Remove ${name}`}
              onClick={() => onChange(chosen.filter((m) => m !== name))}
              className="rounded-full p-1 hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
            >
              <X className="size-3" aria-hidden="true" />
            </button>
          </li>
        ))}
        <li>
          <Combobox
            groups={groups}
            onSelect={(name) => onChange([...chosen, name])}
            disabled={full}
            className="h-8 text-xs"
            trigger={
              <span className="inline-flex items-center gap-1">
                <Plus className="size-3.5" aria-hidden="true" />
                Add a model
              </span>
            }
            searchLabel="Search models"
            placeholder={`Search ${catalogue.models.length} models: claude, llama, mistral…`}
            emptyText="No catalogued model matches."
          />
        </li>
      </ul>
      <p className="text-xs text-muted-foreground">
        {full
          ? `Up to ${MAX_COMPARED} models side by side: remove one to add another.`
          : `Any of the ${catalogue.models.length} models of EcoLogits ${catalogue.dataVersion}, grouped by provider.`}
      </p>
    </div>
  )
}
