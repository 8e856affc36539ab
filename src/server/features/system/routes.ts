import { sql } from 'drizzle-orm'
import { Hono } from 'hono'
import { ecoEngineFor } from '#server/features/eco-engine/instance.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { buildConfig } from './config.ts'

export function systemRoutes(deps: AppDeps) {
  const engine = ecoEngineFor(deps.env, deps.log)
  return new Hono<AppEnv>()
    .get('/config', (c) => {
      const config = buildConfig(deps.env, engine)
      // First use (docs/decisions/020): someone opened the app and the eco model is what they will
      // chat with, so it starts being fetched and loaded in the background; after a failure, a
      // later visit tries again. Where another mode is the default, the first eco send fetches it.
      if (engine && config.defaultChatModel === 'loris' && engine.status().state !== 'ready')
        void engine.prepare().catch(() => {})
      return c.json(config, 200)
    })
    .get('/health', async (c) => {
      await deps.database.db.execute(sql`select 1`)
      return c.json({ ok: true as const, database: deps.database.kind }, 200)
    })
}
