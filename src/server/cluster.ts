// Cluster mode (decision 015): several processes on one port. Every node keeps its
// shared state in the database (sessions, rate limits, leases on replies), so the workers are
// simply more nodes; the primary only starts them, replaces one that dies, and passes a
// shutdown on.
import cluster, { type Worker } from 'node:cluster'
import { availableParallelism } from 'node:os'
import type { Logger } from 'pino'
import type { Env } from './env.ts'
import { gatherWorkerMetrics } from './lib/telemetry/metrics.ts'

/** Workers that die this soon after starting count as a crash loop. */
const EARLY_EXIT_MS = 10_000
const MAX_EARLY_EXITS = 5

/**
 * How many processes serve: WEB_CONCURRENCY, else one per core but one (decision 074); one on the
 * embedded database.
 */
export function workerCount(
  env: Pick<Env, 'DATABASE_URL' | 'WEB_CONCURRENCY'>,
  cores = availableParallelism(),
) {
  // PGlite is a database inside this process: a second process cannot open the same files.
  if (!env.DATABASE_URL) return 1
  // A worker's event loop is not all it runs: its collector's threads, the kernel's work for its
  // sockets, the parse workers and, often, PostgreSQL itself need a core too.
  return env.WEB_CONCURRENCY ?? Math.max(1, cores - 1)
}

/**
 * In the primary of a multi-worker setup, forks the workers and returns true (the caller then
 * serves nothing itself); false when this process should serve (a worker, or a single process).
 */
export function startCluster(env: Env, log: Logger): boolean {
  if (!cluster.isPrimary) return false
  const count = workerCount(env)
  if (env.WEB_CONCURRENCY && env.WEB_CONCURRENCY > 1 && !env.DATABASE_URL)
    log.warn('WEB_CONCURRENCY is ignored on the embedded database: one process serves')
  if (count <= 1) return false

  log.info({ workers: count }, 'starting workers')
  gatherWorkerMetrics()
  let stopping = false
  let earlyExits = 0
  const started = new Map<Worker, number>()
  const fork = () => started.set(cluster.fork(), Date.now())
  for (let i = 0; i < count; i++) fork()

  cluster.on('exit', (worker, code, signal) => {
    const at = started.get(worker) ?? 0
    started.delete(worker)
    if (stopping) {
      if (started.size === 0) {
        log.info('stopped')
        process.exit(0)
      }
      return
    }
    log.warn({ pid: worker.process.pid, code, signal }, 'a worker stopped; starting another')
    if (Date.now() - at < EARLY_EXIT_MS && ++earlyExits >= MAX_EARLY_EXITS) {
      log.error('workers keep stopping right after they start; giving up')
      stopping = true
      for (const w of started.keys()) w.process.kill('SIGTERM')
      if (started.size === 0) process.exit(1)
      return
    }
    fork()
  })

  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    log.info({ signal }, 'shutting down the workers')
    // Each worker finishes its in-flight requests and replies (main.ts), then exits.
    for (const w of started.keys()) w.process.kill('SIGTERM')
    if (started.size === 0) process.exit(0)
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
  return true
}
