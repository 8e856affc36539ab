// Process entry: reads the environment, opens the database, serves, and shuts down gracefully.

import cluster from 'node:cluster'
import type { Server } from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { serve } from '@hono/node-server'
import { createApp } from './app.ts'
import { startCluster } from './cluster.ts'
import { openDatabase } from './db/client.ts'
import { startEmbeddedUpkeep } from './db/pglite-upkeep.ts'
import { serverHasVectors } from './db/vectors.ts'
import { parseEnv, publicOrigin } from './env.ts'
import { uploadsStorage } from './features/attachments/attachments.ts'
import { startUnnamedObjectSweeper } from './features/attachments/unnamed-objects.ts'
import { expireApprovals } from './features/chat/approval.ts'
import { startLeaseSweeper } from './features/chat/lease.ts'
import { withDirectSse } from './features/chat/sse.ts'
import { closeEmbedder } from './features/eco-engine/embedder.ts'
import { closeEcoEngine } from './features/eco-engine/instance.ts'
import { startupTable } from './features/system/startup-report.ts'
import { describeMcpServers, parseMcpServers } from './features/tools/mcp.ts'
import { pruneAccountTokens } from './lib/account-tokens.ts'
import { BackgroundWork } from './lib/background-work.ts'
import type { AppDeps } from './lib/context.ts'
import { createLogger, serverLogDestination } from './lib/logger.ts'
import { mailerFor } from './lib/mail/mailer.ts'
import { startSecurityNoticeSender } from './lib/mail/security-notices.ts'
import { ensurePrivateDirSync } from './lib/private-dir.ts'
import { pruneRateLimits } from './lib/rate-limit.ts'
import { startRepeatingJob } from './lib/repeating-job.ts'
import { checkBucket, s3Client } from './lib/s3-storage.ts'
import { pruneExpiredSessions } from './lib/session.ts'
import { loadSecret } from './secret.ts'

const SHUTDOWN_GRACE_MS = 15_000
const MCP_LIST_MS = 3_000
const HOUR_MS = 3_600_000
const KEEP_ALIVE_MS = 65_000

/** What the MCP servers answer now; an invalid MCP_SERVERS is reported by the table itself. */
async function mcpSummary(env: ReturnType<typeof parseEnv>) {
  try {
    return await describeMcpServers(parseMcpServers(env.MCP_SERVERS), MCP_LIST_MS)
  } catch {
    return []
  }
}

async function main() {
  const env = parseEnv()
  const log = createLogger({ level: env.LOG_LEVEL, base: { app: 'loris' } }, serverLogDestination())
  // Created (or tightened) before anything is written into it: the database, secret and uploads.
  ensurePrivateDirSync(env.DATA_DIR)
  // For the operator: what is configured and what each missing piece needs, in one table.
  // The MCP servers are asked for their tools first (a few seconds at most), to count them. The
  // embedded database ships pgvector; a PostgreSQL server is asked whether it has it.
  if (env.LOG_LEVEL !== 'silent' && cluster.isPrimary) {
    const databaseVectors = env.DATABASE_URL ? await serverHasVectors(env.DATABASE_URL) : true
    process.stdout.write(`${startupTable(env, await mcpSummary(env), { databaseVectors })}\n`)
  }
  if (cluster.isPrimary) {
    // A bucket that does not answer stops the start here, with what to check, not at the first upload.
    if (env.S3_BUCKET) await checkBucket(s3Client(env), env)
    // A generated session secret is written once, before any worker reads it.
    loadSecret(env)
    // The primary of several workers serves nothing itself (cluster.ts, decision 015).
    if (startCluster(env, log)) return
  }
  // OpenTelemetry is loaded only when traces go somewhere (decision 061).
  const tracing = env.OTEL_EXPORTER_OTLP_ENDPOINT
    ? await (await import('./lib/telemetry/tracing.ts')).startTracing(env)
    : null
  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    onConnectionError: (err) => log.warn({ err }, 'database connection lost; it will be replaced'),
  })
  log.info(
    { database: database.kind, ...database.start, vectors: database.vectors },
    'database ready, migrations applied',
  )
  tracing?.traceDatabase(database)
  // Replies a crashed node left 'streaming' are finished now and whenever a lease lapses later.
  const leases = startLeaseSweeper(database.db, log)
  // A PostgreSQL server has autovacuum; the embedded database has this (decision 030).
  const upkeep = database.kind === 'pglite' ? startEmbeddedUpkeep(database.db, log) : null
  // Stored files no upload names (a crash or a failed removal after a deletion) go within hours,
  // swept by one node an hour (decision 042).
  const unnamed = startUnnamedObjectSweeper({ db: database.db, storage: uploadsStorage(env), log })
  const background = new BackgroundWork()
  const deps: AppDeps = { env, database, log, secret: loadSecret(env), background }
  // Security notices a crash or a failed send left in the outbox go out now and every minute.
  const notices = startSecurityNoticeSender(deps)

  const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../client')
  const app = createApp(deps, { clientDir, tracing })
  // The chat's SSE answers are written straight to the Node response (decision 019).
  const server = serve({ fetch: withDirectSse(app.fetch), port: env.PORT, hostname: env.HOST }, (info) => {
    log.info(
      { url: `http://${info.address}:${info.port}`, publicUrl: publicOrigin(env) },
      'Loris is listening',
    )
    // Where the memory is (decision 022): the V8 heap, buffers, and the rest of the resident set
    // (the embedded database's WebAssembly memory and its thread are in `rss` only).
    if (log.isLevelEnabled('debug')) {
      const mb = (n: number) => Math.round(n / 2 ** 20)
      const m = process.memoryUsage()
      log.debug(
        {
          rssMb: mb(m.rss),
          heapUsedMb: mb(m.heapUsed),
          externalMb: mb(m.external),
          arrayBuffersMb: mb(m.arrayBuffers),
        },
        'memory at start',
      )
    }
  })
  // Idle connections are kept a minute (Node's default is 5 s): a person's next send usually comes
  // later than 5 s, and would open (and, behind TLS here, handshake) a new connection first. Past
  // the 60 s idle timeout of common proxies and load balancers, so they close first, never Node a
  // connection they are about to reuse. The headers' timer stays above it (Node's own advice), so
  // it never cuts a kept connection that is only waiting for its next request.
  const http1 = server as Server // serve() makes a node:http server unless given another
  http1.keepAliveTimeout = KEEP_ALIVE_MS
  http1.headersTimeout = KEEP_ALIVE_MS + 1000

  const maintenance = startRepeatingJob(
    () =>
      Promise.all([
        pruneExpiredSessions(deps),
        pruneRateLimits(database.db),
        pruneAccountTokens(database.db),
        expireApprovals(database.db, new Date()),
      ]),
    HOUR_MS,
    { onError: (err) => log.warn({ err }, 'maintenance failed') },
  )

  let stopping = false
  const shutdown = (signal: string) => {
    if (stopping) return
    stopping = true
    log.info({ signal }, 'shutting down: finishing in-flight requests')
    const maintained = maintenance.stop()
    const sweeping = leases.stop()
    const upkept = upkeep?.stop()
    const unnamedSwept = unnamed.stop()
    const noticesSent = notices.stop()
    const force = setTimeout(() => {
      log.warn('in-flight requests did not finish in time; closing anyway')
      if ('closeAllConnections' in server) server.closeAllConnections()
    }, SHUTDOWN_GRACE_MS)
    force.unref()
    server.close(async () => {
      // Replies whose browser already left are still generating: let them be stored.
      if (background.size > 0) {
        log.info({ replies: background.size }, 'waiting for replies still generating')
        if (!(await background.idle(SHUTDOWN_GRACE_MS)))
          log.warn('some replies did not finish before shutdown')
      }
      // Sessions the replies kept open (MCP servers) end now, each server told.
      await background.close().catch((err) => log.warn({ err }, 'closing MCP sessions failed'))
      await Promise.all([sweeping, upkept, maintained, unnamedSwept, noticesSent])
      // Links being mailed (verification, reset) go out before the database closes.
      await Promise.race([mailerFor(deps).settled(), new Promise((r) => setTimeout(r, 5000))])
      await closeEcoEngine(env).catch((err) => log.warn({ err }, 'closing the eco model failed'))
      await closeEmbedder(env).catch((err) => log.warn({ err }, 'closing the embedding model failed'))
      await database.close().catch((err) => log.error({ err }, 'closing the database failed'))
      // The last spans go out before the process does.
      await tracing?.shutdown().catch((err) => log.warn({ err }, 'sending the last traces failed'))
      log.info('stopped')
      process.exit(0)
    })
    // Connections answering now stay open for their next request once done (keep-alive, a
    // minute): each is closed as soon as it is idle, so the close above is not kept waiting.
    const closeIdle = () => {
      if ('closeIdleConnections' in server) server.closeIdleConnections()
    }
    closeIdle()
    setInterval(closeIdle, 100).unref()
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
