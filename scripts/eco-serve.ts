// `npm run eco:serve`: the eco model as its own service (docs/decisions/062). Loads the model
// (ECO_MODEL_FILE, or the default one fetched into DATA_DIR/models), then answers the
// OpenAI-compatible chat API on ECO_SERVE_HOST:ECO_SERVE_PORT. Web nodes point ECO_BASE_URL at
// http://host:port/v1 with ECO_MODEL set to any name and ECO_API_KEY to ECO_SERVE_API_KEY.
import { serve } from '@hono/node-server'
import { parseEnv } from '#server/env.ts'
import { EcoEngine } from '#server/features/eco-engine/engine.ts'
import { ecoServeApp } from '#server/features/eco-engine/serve.ts'
import { ecoEngineSettings } from '#server/features/eco-engine/settings.ts'
import { createLogger, serverLogDestination } from '#server/lib/logger.ts'
import { watchQueue } from '#server/lib/telemetry/metrics.ts'

const env = parseEnv()
const log = createLogger({ level: env.LOG_LEVEL, base: { app: 'loris-eco' } }, serverLogDestination())
const settings = ecoEngineSettings(env)
const engine = new EcoEngine(settings, log.child({ feature: 'eco-engine' }))
watchQueue(
  'eco_engine',
  () => engine.queued,
  () => engine.active,
)
log.info(
  { modelFile: settings.modelFile, threads: settings.threads, parallel: settings.parallel },
  'loading the eco model',
)
try {
  await engine.prepare()
} catch (err) {
  log.error({ err }, 'the eco model could not be loaded')
  process.exit(1)
}
const app = ecoServeApp({ engine, apiKey: env.ECO_SERVE_API_KEY, metricsToken: env.METRICS_TOKEN })
const server = serve({ fetch: app.fetch, port: env.ECO_SERVE_PORT, hostname: env.ECO_SERVE_HOST }, (info) =>
  log.info(
    { url: `http://${info.address}:${info.port}/v1`, model: engine.displayName, energy: engine.energyMethod },
    'Loris eco model is serving',
  ),
)
const stop = (signal: string) => {
  log.info({ signal }, 'shutting down: finishing replies under way')
  server.close(async () => {
    await engine.close().catch((err) => log.warn({ err }, 'closing the eco model failed'))
    log.info('stopped')
    process.exit(0)
  })
  setTimeout(() => process.exit(0), 30_000).unref()
}
process.on('SIGTERM', () => stop('SIGTERM'))
process.on('SIGINT', () => stop('SIGINT'))
