// What GET /metrics reads at each scrape from the features' queues and the database pool
// (lib/telemetry/metrics.ts). Composed here: lib/ never reaches into a feature.
import { startedParsePool } from './features/attachments/parse-pool.ts'
import { existingEcoEngine } from './features/eco-engine/instance.ts'
import { importSlots } from './features/import/import-slots.ts'
import type { AppDeps } from './lib/context.ts'
import { watchDatabasePool, watchQueue } from './lib/telemetry/metrics.ts'

export function watchOperations(deps: AppDeps): void {
  const eco = () => existingEcoEngine(deps.env)
  watchQueue(
    'eco_engine',
    () => eco()?.queued ?? null,
    () => eco()?.active ?? null,
  )
  watchQueue(
    'parse_pool',
    () => startedParsePool()?.queued ?? 0,
    () => startedParsePool()?.reading ?? 0,
  )
  watchQueue(
    'imports',
    () => importSlots.queued,
    () => importSlots.active,
  )
  watchDatabasePool(deps.database.poolUse ?? null)
}
