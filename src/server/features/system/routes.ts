import { sql } from 'drizzle-orm'
import { Hono } from 'hono'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { buildConfig } from './config.ts'

export function systemRoutes(deps: AppDeps) {
  return new Hono<AppEnv>()
    .get('/config', (c) => c.json(buildConfig(deps.env), 200))
    .get('/health', async (c) => {
      await deps.database.db.execute(sql`select 1`)
      return c.json({ ok: true as const, database: deps.database.kind }, 200)
    })
}
