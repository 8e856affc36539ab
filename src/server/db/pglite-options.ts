// The settings every embedded database starts with: the app's thread, the worker thread and the
// template made at build time (decision 022).
import { PGlite, type PGliteOptions } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'

/**
 * PGlite zero-fills PostgreSQL's shared buffers inside its WebAssembly memory when it starts, and
 * a WebAssembly memory never shrinks: the default 128 MB would be 128 MB of resident memory from the
 * first second. 16 MB (2,048 pages) holds the hot part of a person's or a small team's history
 * (the latest threads and messages, the sessions); the pages that do not fit are still in the
 * operating system's file cache, one read away.
 */
export const SHARED_BUFFERS = '16MB'

/**
 * Every prepared statement (pglite-statements.ts) runs on its generic plan, made once: planning
 * in WebAssembly is a good part of a statement's cost (a third of the send's start),
 * and the app's statements are index walks whose best plan does not depend on the values
 * (decision 024; the plan tests in list-pages.test.ts read the plans PostgreSQL then uses).
 */
export const PLAN_CACHE_MODE = 'force_generic_plan'

/**
 * The worker thread's niceness (decision 073): the database's work yields the cores to the event
 * loop's when both want them, so a burst of sends starting does not hold back the tokens of the
 * replies already streaming. Nothing changes while a core is free.
 */
export const DB_THREAD_NICENESS = 10

export function pgliteOptions(): PGliteOptions {
  return {
    // pgvector, for project knowledge's similarity search (db/vectors.ts, decision 068). Loaded
    // with the database; the extension is created only where vectors are wanted.
    extensions: { vector },
    startParams: [
      ...PGlite.defaultStartParams,
      '-c',
      `shared_buffers=${SHARED_BUFFERS}`,
      '-c',
      `plan_cache_mode=${PLAN_CACHE_MODE}`,
    ],
  }
}
