import { sql } from 'drizzle-orm'
import { Hono } from 'hono'
import { ecoEngineFor } from '#server/features/eco-engine/instance.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { buildConfig } from './config.ts'

/** How long the visit that starts the eco model's download waits for its host's first answer. */
const FIRST_ANSWER_WAIT_MS = 1_000

export function systemRoutes(deps: AppDeps) {
  const engine = ecoEngineFor(deps.env, deps.log)
  return new Hono<AppEnv>()
    .get('/config', async (c) => {
      // First use (docs/decisions/020): someone opened the app and the eco model is what they will
      // chat with (no Gemini to prefer), so it starts being fetched and loaded in the background,
      // before the answer so that it reports the preparation; after a failure, a later visit tries
      // again. Where Gemini is the default, the first eco send fetches it.
      // The visit that starts a download hears how its host answered (at most a second later).
      if (engine && !deps.env.GEMINI_API_KEY && engine.status().state !== 'ready') {
        void engine.prepare().catch(() => {})
        await engine.untilHostAnswers(FIRST_ANSWER_WAIT_MS)
      }
      const config = buildConfig(deps.env, engine)
      return c.json(config, 200)
    })
    .get('/health', async (c) => {
      await deps.database.db.execute(sql`select 1`)
      return c.json({ ok: true as const, database: deps.database.kind }, 200)
    })
}
