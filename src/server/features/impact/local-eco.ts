// GET /api/impact/local-eco: what the in-process eco model has measured, as a rolling median per
// generated token over its most recent replies (shown on the how-it-works page and calculator).
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm'
import type { LocalEcoFigures } from '#contract/eco-engine.ts'
import { co2ImpactSchema } from '#contract/impact.ts'
import type { Db } from '#server/db/client.ts'
import { messages } from '#server/db/schema/index.ts'
import type { EcoEngine } from '#server/features/eco-engine/engine.ts'
import { ELECTRICITY_MIXES } from './electricity-mixes.ts'
import { midpoint } from './estimator.ts'
import { PROVIDERS } from './methodology-data.ts'

/** Replies the median is taken over: recent enough to follow a model or machine change. */
export const LOCAL_ECO_WINDOW = 100

export function median(values: number[]): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

export async function localEcoFigures(
  db: Db,
  engine: EcoEngine | null,
  zoneSetting: string | null,
): Promise<LocalEcoFigures> {
  const zone = zoneSetting && ELECTRICITY_MIXES[zoneSetting] ? zoneSetting : PROVIDERS.self.zone
  const rows = await db
    .select({ co2Impact: messages.co2Impact })
    .from(messages)
    .where(
      and(
        eq(messages.provider, 'self'),
        isNotNull(messages.co2Impact),
        sql`${messages.co2Impact}->'inputs'->>'energyKwh' is not null`,
      ),
    )
    .orderBy(desc(messages.completedAt))
    .limit(LOCAL_ECO_WINDOW)
  const perToken: number[] = []
  let lastMethod: 'measured' | 'estimated' | null = null
  for (const row of rows) {
    const parsed = co2ImpactSchema.safeParse(row.co2Impact)
    if (!parsed.success) continue
    const { energyKwh, outputTokens, energyMethod } = parsed.data.inputs
    if (energyKwh === undefined || outputTokens <= 0) continue
    perToken.push(energyKwh / outputTokens)
    lastMethod ??= energyMethod ?? null
  }
  const energyKwhPerToken = median(perToken)
  const mix = ELECTRICITY_MIXES[zone]?.kgCo2eqPerKwh ?? 0
  return {
    model: `Loris eco (${engine?.displayName ?? 'local model'})`,
    inProcess: engine !== null,
    samples: perToken.length,
    method: perToken.length > 0 ? (lastMethod ?? engine?.energyMethod ?? null) : null,
    energyKwhPerToken,
    // Facility overhead: the midpoint of the self provider's PUE range, as the stored `actual`.
    gco2eqPerToken:
      energyKwhPerToken === null ? null : energyKwhPerToken * midpoint(PROVIDERS.self.pue) * mix * 1000,
    zone,
  }
}
