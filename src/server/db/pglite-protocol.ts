// Messages between the app and the worker thread that owns the embedded database
// (pglite-thread.ts, pglite-worker.ts; decision 017).

export interface QueryOptions {
  rowMode?: 'array' | 'object'
  /** Type OIDs whose text is kept as is (drizzle's parsers for dates and intervals). */
  rawTypes?: number[]
}

/** What drizzle's pglite driver passes with a statement: its parsers only keep a type's text. */
export interface DrizzleQueryConfig {
  rowMode?: 'array' | 'object'
  parsers?: Record<number, unknown>
}

// Drizzle keeps one config per statement it built: its kept types are read once per config.
const rawTypesOf = new WeakMap<object, number[]>()

export function queryOptionsOf(config?: DrizzleQueryConfig): QueryOptions {
  const parsers = config?.parsers
  if (!parsers) return { rowMode: config?.rowMode, rawTypes: [] }
  let rawTypes = rawTypesOf.get(parsers)
  if (!rawTypes) {
    rawTypes = Object.keys(parsers).map(Number)
    rawTypesOf.set(parsers, rawTypes)
  }
  return { rowMode: config?.rowMode, rawTypes }
}

export type WorkerRequest =
  | { id: number; kind: 'open'; dataDir: string | null }
  | { id: number; kind: 'query'; tx: number | null; sql: string; params: unknown[]; options: QueryOptions }
  | { id: number; kind: 'begin' }
  | { id: number; kind: 'end'; tx: number; commit: boolean }
  | { id: number; kind: 'close' }

export type WorkerResponse =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: SerializedError }

export interface SerializedError {
  message: string
  name: string
  /** PostgreSQL's fields (code, detail, constraint...) the app reads on errors. */
  fields: Record<string, unknown>
}
