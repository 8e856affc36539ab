// One engine per app environment: the chat routes generate with it, GET /api/config reports it.
import type { Logger } from 'pino'
import type { Env } from '#server/env.ts'
import { EcoEngine, type EcoEngineOptions } from './engine.ts'
import { ecoEngineSettings, ecoSource } from './settings.ts'

const engines = new WeakMap<Env, EcoEngine | null>()

/** The in-process engine when the eco mode uses it (no endpoint, engine not off), else null. */
export function ecoEngineFor(env: Env, log: Logger, opts?: EcoEngineOptions): EcoEngine | null {
  if (engines.has(env)) return engines.get(env) ?? null
  const source = ecoSource(env)
  const engine =
    source === 'file' || source === 'download'
      ? new EcoEngine(ecoEngineSettings(env), log.child({ feature: 'eco-engine' }), opts)
      : null
  engines.set(env, engine)
  return engine
}

/** This environment's engine if one was made (metrics read it without making one). */
export const existingEcoEngine = (env: Env): EcoEngine | null => engines.get(env) ?? null

/** Frees the model of this environment's engine (tests, shutdown). */
export async function closeEcoEngine(env: Env): Promise<void> {
  await engines.get(env)?.close()
  engines.delete(env)
}
