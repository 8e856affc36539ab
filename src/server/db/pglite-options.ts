// The settings every embedded database starts with: the app's thread, the worker thread and the
// template made at build time (decision 022).
import { PGlite, type PGliteOptions } from '@electric-sql/pglite'

/**
 * PGlite zero-fills PostgreSQL's shared buffers inside its WebAssembly memory when it starts, and
 * a WebAssembly memory never shrinks: the default 128 MB was 128 MB of resident memory from the
 * first second. 16 MB (2,048 pages) holds the hot part of a person's or a small team's history
 * (the latest threads and messages, the sessions); the pages that do not fit are still in the
 * operating system's file cache, one read away.
 */
export const SHARED_BUFFERS = '16MB'

export function pgliteOptions(): PGliteOptions {
  return { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`] }
}
