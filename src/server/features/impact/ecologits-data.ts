import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { ECOLOGITS_DATA_VERSION, modelWarningSchema } from '#contract/impact.ts'

// EcoLogits' data files (dataset/ecologits-0.9.1/, see PROVENANCE.md there), read and checked once
// when the server starts: a file that does not fit these schemas stops the start with the zod
// issue, rather than pricing a request with a missing or mistyped number.

const FOLDER = `ecologits-${ECOLOGITS_DATA_VERSION}`

const bounds = z
  .object({ min: z.number().positive().finite(), max: z.number().positive().finite() })
  .strict()
  .refine((r) => r.min <= r.max, { message: 'min must not exceed max' })

const providerConfig = z.object({ zone: z.string().regex(/^[A-Z]{3}$/), pue: bounds, wue: bounds }).strict()

const catalogueModel = z
  .object({
    provider: z.string().min(1),
    name: z.string().min(1),
    architecture: z.enum(['dense', 'moe']),
    totalParamsB: bounds,
    activeParamsB: bounds,
    warnings: z.array(modelWarningSchema),
  })
  .strict()
  .refine((m) => m.activeParamsB.min <= m.totalParamsB.min && m.activeParamsB.max <= m.totalParamsB.max, {
    message: 'active parameters must not exceed total parameters',
  })

export const catalogueFileSchema = z
  .object({
    version: z.literal(ECOLOGITS_DATA_VERSION),
    source: z.string(),
    units: z.record(z.string(), z.string()),
    providers: z.record(z.string(), providerConfig),
    models: z.array(catalogueModel).min(1),
    aliases: z.array(z.object({ provider: z.string(), alias: z.string(), name: z.string() }).strict()),
  })
  .superRefine((file, ctx) => {
    // A name must point at one model whatever the provider: the estimate endpoint takes a name alone.
    const seen = new Set<string>()
    for (const m of file.models) {
      if (!Object.hasOwn(file.providers, m.provider)) {
        ctx.addIssue({ code: 'custom', message: `model ${m.name}: unknown provider ${m.provider}` })
      }
      if (seen.has(m.name)) ctx.addIssue({ code: 'custom', message: `model name ${m.name} appears twice` })
      seen.add(m.name)
    }
    for (const a of file.aliases) {
      const target = file.models.find((m) => m.name === a.alias && m.provider === a.provider)
      if (!target) ctx.addIssue({ code: 'custom', message: `alias ${a.name}: no model ${a.alias}` })
      if (seen.has(a.name)) ctx.addIssue({ code: 'custom', message: `alias ${a.name} is already a name` })
      seen.add(a.name)
    }
  })
export type CatalogueFile = z.infer<typeof catalogueFileSchema>

const mixRow = z.object({
  name: z.string().regex(/^[A-Z]{3}$/),
  adpe: z.coerce.number().nonnegative().finite(),
  pe: z.coerce.number().positive().finite(),
  gwp: z.coerce.number().positive().finite(),
  wue: z.coerce.number().nonnegative().finite(),
})
export type MixRow = z.infer<typeof mixRow>

const MIX_COLUMNS = ['name', 'adpe', 'pe', 'gwp', 'wue']

/** electricity_mixes.csv: a header and one zone per line, plain numbers (no quoting in this file). */
export function parseMixesCsv(text: string): MixRow[] {
  const [header, ...lines] = text.trim().split(/\r?\n/)
  const columns = (header ?? '').split(',').map((c) => c.trim())
  if (columns.join(',') !== MIX_COLUMNS.join(',')) {
    throw new Error(`electricity_mixes.csv: expected columns ${MIX_COLUMNS.join(',')}, got ${header}`)
  }
  const rows = lines.map((line, i) => {
    const cells = line.split(',')
    if (cells.length !== columns.length) {
      throw new Error(
        `electricity_mixes.csv line ${i + 2}: expected ${columns.length} cells, got ${cells.length}`,
      )
    }
    const parsed = mixRow.safeParse(Object.fromEntries(columns.map((c, j) => [c, cells[j]?.trim()])))
    if (!parsed.success) {
      throw new Error(`electricity_mixes.csv line ${i + 2}: ${z.prettifyError(parsed.error)}`)
    }
    return parsed.data
  })
  const codes = new Set(rows.map((r) => r.name))
  if (codes.size !== rows.length) throw new Error('electricity_mixes.csv: a zone appears twice')
  if (!codes.has('WOR')) throw new Error('electricity_mixes.csv: the world mix WOR is missing')
  return rows
}

/** The catalogue file, checked; a bad file throws with every issue. */
export function parseCatalogue(json: unknown): CatalogueFile {
  const parsed = catalogueFileSchema.safeParse(json)
  if (!parsed.success) throw new Error(`catalogue.json does not fit: ${z.prettifyError(parsed.error)}`)
  return parsed.data
}

const here = path.dirname(fileURLToPath(import.meta.url))

// The data sits beside this file in the source tree; the bundled server (dist/ or any
// LORIS_BUILD_DIR) finds it by walking up to the project root, as the migrations do.
function findDataFolder(): string {
  const local = path.join(here, 'dataset', FOLDER)
  if (existsSync(path.join(local, 'catalogue.json'))) return local
  for (let dir = here; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'src/server/features/impact/dataset', FOLDER)
    if (existsSync(path.join(candidate, 'catalogue.json'))) return candidate
  }
  throw new Error(`EcoLogits data not found (expected src/server/features/impact/dataset/${FOLDER})`)
}

function load() {
  const folder = findDataFolder()
  const catalogue = parseCatalogue(JSON.parse(readFileSync(path.join(folder, 'catalogue.json'), 'utf8')))
  const mixes = parseMixesCsv(readFileSync(path.join(folder, 'electricity_mixes.csv'), 'utf8'))
  const zones = new Set(mixes.map((m) => m.name))
  for (const [id, p] of Object.entries(catalogue.providers)) {
    if (!zones.has(p.zone)) throw new Error(`catalogue.json: provider ${id} runs in unknown zone ${p.zone}`)
  }
  return { catalogue, mixes }
}

/** Read once, at import (server start-up). */
export const ECOLOGITS_DATA = load()
