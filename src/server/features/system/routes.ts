import { sql } from 'drizzle-orm'
import { Hono } from 'hono'
import { ecoEngineFor } from '#server/features/eco-engine/instance.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { buildConfig } from './config.ts'

export function systemRoutes(deps: AppDeps) {
  const engine = ecoEngineFor(deps.env, deps.log)
  return new Hono<AppEnv>()
    .get('/config', (c) => {
      // First use (docs/decisions/020): someone opened the app and the eco model is what they will
      // chat with (no Gemini to prefer), so it starts being fetched and loaded in the background,
      // before the answer so that it reports the preparation; after a failure, a later visit tries
      // again. Where Gemini is the default, the first eco send fetches it.
      if (engine && !deps.env.GEMINI_API_KEY && engine.status().state !== 'ready')
        void engine.prepare().catch(() => {})
      const config = buildConfig(deps.env, engine)
      return c.json(config, 200)
    })
    .get('/health', async (c) => {
      await deps.database.db.execute(sql`select 1`)
      return c.json({ ok: true as const, database: deps.database.kind }, 200)
    })
}
