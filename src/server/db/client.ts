// Opens the database: embedded PGlite under DATA_DIR by default, a PostgreSQL server when
// DATABASE_URL is set. Both get the same schema and the same committed migrations.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { ensurePrivateDirSync } from '#server/lib/private-dir.ts'
import { pgliteOptions } from './pglite-options.ts'
import { withPreparedStatements } from './pglite-statements.ts'
import { createFromTemplate, templateMismatch } from './pglite-template.ts'
import { PGliteThread } from './pglite-thread.ts'
import * as schema from './schema/index.ts'
import { ensureVectorStore, type VectorSupport } from './vectors.ts'

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema>
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  /** Whether passages can be ranked by vector similarity here (pgvector; db/vectors.ts). */
  vectors: VectorSupport
  close(): Promise<void>
  /**
   * Runs every statement sent through the client (the pool's, or the embedded one's) inside
   * `wrap` from now on: a span per statement (lib/telemetry/tracing.ts).
   */
  traceQueries?: (wrap: QueryWrap) => void
  /** PostgreSQL only: the pool's connections now (metrics). */
  poolUse?: () => { total: number; idle: number; waiting: number; max: number }
  /** Embedded only: how its files came to be this start (decision 022), and migrations run. */
  start?: { created: 'template' | 'initdb' | null; migrationsApplied: number; note?: string }
}

export type QueryWrap = (text: string, run: () => Promise<unknown>) => Promise<unknown>

/** Replaces the client's `query` with one run inside `wrap` (drizzle calls it on this object). */
function wrapQueries(target: object, wrap: QueryWrap) {
  const client = target as { query: (...args: unknown[]) => Promise<unknown> }
  const query = client.query.bind(client)
  client.query = (...args) => {
    const q = args[0]
    const text = typeof q === 'string' ? q : ((q as { text?: string } | undefined)?.text ?? '')
    return wrap(text, () => query(...args))
  }
}

const here = path.dirname(fileURLToPath(import.meta.url))
// Migrations live beside this file in the source tree; the bundled server (in dist/ or any
// LORIS_BUILD_DIR) finds them by walking up to the project root.
function findMigrations(): string {
  const local = path.resolve(here, 'migrations')
  if (existsSync(path.join(local, 'meta', '_journal.json'))) return local
  for (let dir = here; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'src/server/db/migrations')
    if (existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate
  }
  throw new Error('Database migrations not found (expected src/server/db/migrations)')
}
export const migrationsFolder = findMigrations()

// The built server ships a ready database beside main.js (scripts/build.mjs, decision 022); run
// from the sources there is none and PGlite's initdb makes one.
const bundledTemplate = path.resolve(here, 'pglite-template')

// Any fixed 64-bit number: app nodes starting together migrate one at a time.
const MIGRATION_LOCK_ID = 727_001

export async function openDatabase(opts: {
  databaseUrl?: string
  dataDir?: string
  /** Errors of idle pooled connections (server restart, terminated backend). */
  onConnectionError?: (err: Error) => void
  /** Sees every statement the app runs (tests count the work a request does). */
  onQuery?: (sql: string) => void
  /** PGlite in a worker thread; by default only with a data directory (decision 017). */
  pgliteThread?: boolean
  /** A new data directory is copied from this template (default: the built server's; decision 022). */
  pgliteTemplate?: string | null
  /**
   * In memory only: start from this dump (PGlite's `dumpDataDir`) instead of running initdb.
   * Tests open hundreds of databases; initdb is seconds of CPU each, a dump's load under one.
   */
  memoryImage?: Blob
  /** False: no pgvector even where the database has it (tests of a server without it). */
  vectors?: boolean
}): Promise<Database> {
  const vectorStore = (db: Db): Promise<VectorSupport> =>
    opts.vectors === false ? Promise.resolve({ vectors: false, reason: 'turned off' }) : ensureVectorStore(db)
  const onQuery = opts.onQuery
  const logger = onQuery ? { logQuery: (query: string) => onQuery(query) } : undefined
  if (opts.databaseUrl) {
    // Loaded only for PostgreSQL: the embedded default never needs the driver (decision 022).
    const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
    ])
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 })
    // Without a listener, an idle connection dropped by the server would crash the process;
    // the pool replaces it on the next query.
    pool.on('error', (err) => opts.onConnectionError?.(err))
    const db = drizzlePg({ client: pool, schema, logger }) as unknown as Db
    const lock = await pool.connect()
    let vectors: VectorSupport
    try {
      await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID])
      await migratePg(drizzlePg({ client: pool, schema }), { migrationsFolder })
      vectors = await vectorStore(drizzlePg({ client: pool, schema }) as unknown as Db)
    } finally {
      await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {})
      lock.release()
    }
    return {
      db,
      kind: 'postgres',
      vectors,
      close: () => pool.end(),
      traceQueries: (wrap) => wrapQueries(pool, wrap),
      poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: 10 }),
    }
  }
  // No dataDir means in memory (tests), in this thread unless asked otherwise. A data directory
  // (the shipped default) is served by a worker thread, so its queries never block this one
  // (pglite-thread.ts, decision 017).
  let client: PGlite
  let closeClient: () => Promise<void>
  const dir = opts.dataDir ? path.resolve(opts.dataDir, 'pglite') : null
  // Started first, so PostgreSQL's WebAssembly compiles while a fresh directory is copied.
  const thread = (opts.pgliteThread ?? Boolean(dir)) ? PGliteThread.start() : null
  let created: 'template' | 'initdb' | null = null
  let note: string | undefined
  try {
    if (opts.dataDir && dir) {
      // DATA_DIR and the database in it are the server user's alone (private-dir.ts).
      ensurePrivateDirSync(path.resolve(opts.dataDir))
      if (!existsSync(path.join(dir, 'PG_VERSION'))) {
        const template = opts.pgliteTemplate === undefined ? bundledTemplate : opts.pgliteTemplate
        const mismatch = template ? templateMismatch(template, migrationsFolder) : 'no template'
        if (template && !mismatch && createFromTemplate(template, dir)) created = 'template'
        else {
          created = 'initdb'
          note = mismatch ?? 'the directory was not empty'
        }
      }
      ensurePrivateDirSync(dir)
    }
  } catch (err) {
    await thread?.close()
    throw err
  }
  if (thread) {
    await thread.open(dir)
    client = thread.asPGlite()
    closeClient = () => thread.close()
  } else {
    const image = dir ? undefined : opts.memoryImage
    const local = new PGlite({ ...pgliteOptions(), dataDir: dir ?? undefined, loadDataDir: image })
    client = withPreparedStatements(local)
    closeClient = () => local.close()
  }
  const pgliteDb = drizzlePglite({ client, schema })
  // Migrations drizzle has recorded (none before its first run): a template's are all there.
  const applied = async () => {
    const table = await pgliteDb.execute<{ t: string | null }>(
      sql`select to_regclass('drizzle.__drizzle_migrations')::text as t`,
    )
    if (!table.rows[0]?.t) return 0
    const count = await pgliteDb.execute<{ n: number }>(
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    )
    return count.rows[0]?.n ?? 0
  }
  const before = await applied()
  await migratePglite(pgliteDb, { migrationsFolder })
  const migrationsApplied = (await applied()) - before
  const vectors = await vectorStore(pgliteDb as unknown as Db)
  const appDb = logger ? drizzlePglite({ client, schema, logger }) : pgliteDb
  return {
    db: appDb as unknown as Db,
    kind: 'pglite',
    vectors,
    close: closeClient,
    traceQueries: (wrap) => wrapQueries(client, wrap),
    start: { created, migrationsApplied, ...(note ? { note } : {}) },
  }
}
