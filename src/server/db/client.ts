// Opens the database: embedded PGlite under DATA_DIR by default, a PostgreSQL server when
// DATABASE_URL is set. Both get the same schema and the same committed migrations.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { ensurePrivateDirSync } from '#server/lib/private-dir.ts'
import { PGliteThread } from './pglite-thread.ts'
import * as schema from './schema/index.ts'

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema>
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  close(): Promise<void>
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

// Any fixed 64-bit number: app nodes starting together migrate one at a time.
const MIGRATION_LOCK_ID = 727_001

export async function openDatabase(opts: {
  databaseUrl?: string
  dataDir?: string
  /** Errors of idle pooled connections (server restart, terminated backend). */
  onConnectionError?: (err: Error) => void
  /** Sees every statement the app runs (tests count the work a request does; issue 15). */
  onQuery?: (sql: string) => void
  /** PGlite in a worker thread; by default only with a data directory (decision 017). */
  pgliteThread?: boolean
}): Promise<Database> {
  const onQuery = opts.onQuery
  const logger = onQuery ? { logQuery: (query: string) => onQuery(query) } : undefined
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 })
    // Without a listener, an idle connection dropped by the server would crash the process;
    // the pool replaces it on the next query.
    pool.on('error', (err) => opts.onConnectionError?.(err))
    const db = drizzlePg({ client: pool, schema, logger }) as unknown as Db
    const lock = await pool.connect()
    try {
      await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID])
      await migratePg(drizzlePg({ client: pool, schema }), { migrationsFolder })
    } finally {
      await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {})
      lock.release()
    }
    return { db, kind: 'postgres', close: () => pool.end() }
  }
  // No dataDir means in memory (tests), in this thread unless asked otherwise. A data directory
  // (the shipped default) is served by a worker thread, so its queries never block this one
  // (pglite-thread.ts, decision 017).
  let client: PGlite
  let closeClient: () => Promise<void>
  const dir = opts.dataDir ? path.resolve(opts.dataDir, 'pglite') : null
  if (opts.dataDir && dir) {
    // DATA_DIR and the database in it are the server user's alone (private-dir.ts).
    ensurePrivateDirSync(path.resolve(opts.dataDir))
    ensurePrivateDirSync(dir)
  }
  if (opts.pgliteThread ?? Boolean(dir)) {
    const thread = await PGliteThread.open(dir)
    client = thread.asPGlite()
    closeClient = () => thread.close()
  } else {
    const local = dir ? new PGlite(dir) : new PGlite()
    client = local
    closeClient = () => local.close()
  }
  const pgliteDb = drizzlePglite({ client, schema })
  await migratePglite(pgliteDb, { migrationsFolder })
  const appDb = logger ? drizzlePglite({ client, schema, logger }) : pgliteDb
  return { db: appDb as unknown as Db, kind: 'pglite', close: closeClient }
}
