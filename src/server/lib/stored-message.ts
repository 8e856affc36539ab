// A message's jsonb columns as the API, exports and shares read them: only values of a known
// shape come out, so a row written by an older version (or an edited import) never breaks a read.
import { co2ImpactSchema } from '#contract/impact.ts'
import { type MessageCo2Impact, messageCo2ImpactSchema } from '#contract/messages.ts'
import { type Source, sourceSchema, type ToolStep, toolStepSchema } from '#contract/tools.ts'

/**
 * The stored impact (grams with bounds) as a message shows it: the midpoints, the bounds, and the
 * energy and water when they were counted. Also what a share's snapshot keeps.
 */
export function co2Of(stored: unknown): MessageCo2Impact | null {
  if (stored == null) return null
  const full = co2ImpactSchema.safeParse(stored)
  if (full.success) {
    const { saved, actual, standard, energyWh, waterL, routing } = full.data
    const bounds = (g: { min: number; max: number }) => ({ min: g.min, max: g.max })
    return {
      saved: saved.mid,
      actual: actual.mid,
      standard: standard.mid,
      range: { saved: bounds(saved), actual: bounds(actual), standard: bounds(standard) },
      ...(energyWh ? { energyWh } : {}),
      ...(waterL ? { waterL } : {}),
      ...(routing ? { routing } : {}),
    }
  }
  const plain = messageCo2ImpactSchema.safeParse(stored)
  return plain.success ? plain.data : null
}

/** A reply's stored sources (messages.sources), the ones of a known shape; [] when none. */
export function sourcesOf(stored: unknown): Source[] {
  const parsed = sourceSchema.array().safeParse(stored ?? [])
  return parsed.success ? parsed.data : []
}

/** A reply's stored tool steps (messages.tool_steps); [] when none. */
export function toolStepsOf(stored: unknown): ToolStep[] {
  const parsed = toolStepSchema.array().safeParse(stored ?? [])
  return parsed.success ? parsed.data : []
}
