// Builds a real app around a fresh database for API tests: in-memory PGlite by default, or a
// new database on the PostgreSQL server in TEST_DATABASE_URL (npm run test:pg).
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { createApp } from '#server/app.ts'
import { type Database, openDatabase } from '#server/db/client.ts'
import { parseEnv } from '#server/env.ts'
import { closeEmbedder } from '#server/features/eco-engine/embedder.ts'
import type { AppDeps } from '#server/lib/context.ts'
import { createLogger } from '#server/lib/logger.ts'
import { mailerFor } from '#server/lib/mail/mailer.ts'
import { migratedImage } from './pglite-image.ts'

export const TEST_ORIGIN = 'http://localhost:5000'

export interface TestAppOptions {
  /**
   * PGlite in a worker thread, as the shipped server runs it (decision 017), instead of on the
   * test's own thread: for tests that measure how long the main thread is held. No effect on
   * PostgreSQL.
   */
  pgliteThread?: boolean
  /** False: the database keeps no vectors, as a PostgreSQL server without pgvector. */
  vectors?: boolean
}

async function openTestDatabase(onQuery: (sql: string) => void, opts: TestAppOptions): Promise<Database> {
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) {
    const pgliteThread = opts.pgliteThread ?? false
    // The thread opens its own database (initdb); in this thread, from the migrated image.
    return openDatabase({
      onQuery,
      pgliteThread,
      memoryImage: pgliteThread ? undefined : await migratedImage(opts.vectors !== false),
      vectors: opts.vectors,
    })
  }
  const name = `loris_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const database = await openDatabase({ databaseUrl: url.toString(), onQuery, vectors: opts.vectors })
  return {
    ...database,
    async close() {
      await database.close()
      const cleanup = new pg.Client({ connectionString: adminUrl })
      await cleanup.connect()
      await cleanup.query(`drop database if exists ${name} with (force)`)
      await cleanup.end()
    },
  }
}

export interface TestApp {
  deps: AppDeps
  app: ReturnType<typeof createApp>
  /** app.request with JSON and cookie conveniences; `cookie` signs the request in. */
  request(path: string, init?: RequestInit & { json?: unknown; cookie?: string }): Promise<Response>
  /** Registers a user and returns its session cookie and user JSON. */
  signUp(email?: string, password?: string): Promise<{ cookie: string; user: Record<string, unknown> }>
  /** Every statement the app ran since the last `queries.length = 0` (tests count work with it). */
  queries: string[]
  close(): Promise<void>
}

let counter = 0

export async function createTestApp(
  env: Record<string, string> = {},
  extra: Partial<AppDeps> = {},
  opts: TestAppOptions = {},
): Promise<TestApp> {
  const queries: string[] = []
  const database = await openTestDatabase((sql) => queries.push(sql), opts)
  // Each app its own data directory (uploads, the mail outbox), removed on close.
  const ownDataDir = env.DATA_DIR ? undefined : mkdtempSync(path.join(tmpdir(), 'loris-test-'))
  const deps: AppDeps = {
    env: parseEnv({
      NODE_ENV: 'test',
      PUBLIC_URL: TEST_ORIGIN,
      DATA_DIR: ownDataDir,
      // The in-process eco model would be fetched from Hugging Face on first use: no test may
      // reach outside this machine, so the tests that use it turn it on with a loopback source.
      ECO_ENGINE: 'off',
      EMBED_ENGINE: 'off',
      ...env,
    }),
    database,
    log: createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    secret: 'test-secret-test-secret-test-secret-0123',
    ...extra,
  }
  const app = createApp(deps)

  const request: TestApp['request'] = (path, init = {}) => {
    const { json, cookie, headers, ...rest } = init
    const h = new Headers(headers)
    if (json !== undefined) h.set('content-type', 'application/json')
    if (cookie) h.set('cookie', cookie)
    return Promise.resolve(
      app.request(`${TEST_ORIGIN}${path}`, {
        ...rest,
        headers: h,
        body: json !== undefined ? JSON.stringify(json) : rest.body,
      }),
    )
  }

  return {
    deps,
    app,
    request,
    queries,
    async signUp(email, password = 'correct horse battery') {
      counter += 1
      const address = email ?? `user${counter}-${randomBytes(3).toString('hex')}@example.com`
      const res = await request('/api/register', { method: 'POST', json: { email: address, password } })
      if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`)
      // The welcome mail is written after the answer (with its address's budget counted in the
      // database): done before the test goes on, so it never lands among the statements counted.
      await mailerFor(deps).settled()
      return { cookie: sessionCookie(res), user: await res.json() }
    },
    async close() {
      // Mail still being written would otherwise land in a directory that is gone.
      await mailerFor(deps).settled()
      await closeEmbedder(deps.env)
      await database.close()
      if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true })
    },
  }
}

/** The `name=value` part of the session cookie a response set. */
export function sessionCookie(res: Response): string {
  const header = res.headers.getSetCookie().find((c) => c.startsWith('loris_session='))
  if (!header) throw new Error('no session cookie was set')
  return header.split(';')[0] as string
}
