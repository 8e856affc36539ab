import type { Logger } from 'pino'
import type { Database } from '#server/db/client.ts'
import type { sessions, users } from '#server/db/schema/index.ts'
import type { Env } from '#server/env.ts'
import type { BackgroundWork } from './background-work.ts'

export type UserRow = typeof users.$inferSelect
export type SessionRow = typeof sessions.$inferSelect

/**
 * What every feature is built from. Features receive it at construction (no globals), so tests
 * build an app around an in-memory database and loopback stand-ins.
 */
export interface AppDeps {
  env: Env
  database: Database
  log: Logger
  /** Secret for HMACs (session ids, OAuth state cookies). */
  secret: string
  /** Services registered by features (providers, payments, storage...), filled in app.ts. */
  now?: () => Date
  /** Work that must finish before the process exits (main.ts waits for it on SIGTERM). */
  background?: BackgroundWork
}

/** Hono's environment for every route. */
export interface AppEnv {
  Variables: {
    requestId: string
    log: Logger
    user: UserRow
    session: SessionRow
    /**
     * The id of the session this request began on without reading it (`readsCheckSession`,
     * decision 036): the statement that reads must check it. Gone once the session was read.
     */
    guessedSession?: string
  }
}
