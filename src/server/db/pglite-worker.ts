// The worker thread that owns the embedded database (decision 017): PGlite runs every query
// synchronously inside WebAssembly, so in the app's thread each query would stall every open
// stream. Here it stalls only this thread. Transactions stay open across messages: `begin`
// starts PGlite's own transaction, whose statements then arrive one by one, until `end`.
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { setFlagsFromString } from 'node:v8'
import { parentPort } from 'node:worker_threads'
import { PGlite, type Transaction } from '@electric-sql/pglite'
import { lowerThreadPriority } from '#server/lib/thread-priority.ts'
import { DB_THREAD_NICENESS, pgliteOptions } from './pglite-options.ts'
import type { QueryOptions, SerializedError, WorkerRequest, WorkerResponse } from './pglite-protocol.ts'
import { PreparedStatements } from './pglite-statements.ts'

if (!parentPort) throw new Error('pglite-worker runs as a worker thread')

// PostgreSQL's 9 MB of WebAssembly runs on V8's baseline compiler only (decision 022). With the
// optimising tier too, V8 spent about 0.4 s more CPU at start compiling it in the background and
// kept about 60 MB more resident; the app's small queries ran no faster (their cost is in the
// protocol and the copies), only long scans do (about 1.4 times). The flag is process-wide but
// only this thread runs WebAssembly, and it must be set before PGlite compiles its module.
setFlagsFromString('--liftoff-only')
lowerThreadPriority(DB_THREAD_NICENESS)

// Begun as soon as the thread starts: compiling PostgreSQL's WebAssembly and reading its bundled
// files overlap the copy of a fresh data directory in the app's thread (decision 022).
const artifacts = (async () => {
  const require = createRequire(import.meta.url)
  const [wasm, data] = await Promise.all([
    readFile(require.resolve('@electric-sql/pglite/pglite.wasm')),
    readFile(require.resolve('@electric-sql/pglite/pglite.data')),
  ])
  return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([data]) }
})()
// Not awaited until `open`; a failure here is reported there.
artifacts.catch(() => undefined)
const port = parentPort

let db: PGlite | null = null
let statements: PreparedStatements | null = null
let nextTx = 1
const transactions = new Map<
  number,
  { tx: Transaction; end: (commit: boolean) => void; done: Promise<void> }
>()

function serialize(err: unknown): SerializedError {
  const e = err instanceof Error ? err : new Error(String(err))
  const fields: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(e)) {
    if (value === undefined || typeof value === 'function' || typeof value === 'object') continue
    fields[key] = value
  }
  return { message: e.message, name: e.name, fields }
}

async function query(tx: number | null, sql: string, params: unknown[], options: QueryOptions) {
  if (!statements) throw new Error('database not open')
  const open = tx === null ? undefined : transactions.get(tx)?.tx
  if (tx !== null && !open) throw new Error('transaction is over')
  const result = await statements.query(sql, params, options, open)
  // Only what drizzle reads: plain data, cloned to the app's thread.
  return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows }
}

function begin(): Promise<number> {
  if (!db) throw new Error('database not open')
  const id = nextTx++
  return new Promise<number>((started, failed) => {
    let end: (commit: boolean) => void = () => {}
    const ended = new Promise<boolean>((resolve) => {
      end = resolve
    })
    const done: Promise<void> = db!
      .transaction(async (tx) => {
        transactions.set(id, { tx, end, done })
        started(id)
        if (!(await ended)) await tx.rollback()
      })
      .finally(() => transactions.delete(id))
    // A failure to begin rejects `begin`; a failure to commit rejects `end`, which awaits `done`.
    done.catch(failed)
  })
}

async function end(tx: number, commit: boolean) {
  const open = transactions.get(tx)
  if (!open) throw new Error('transaction is over')
  open.end(commit)
  await open.done
}

async function handle(req: WorkerRequest): Promise<unknown> {
  switch (req.kind) {
    case 'open':
      db = new PGlite({ ...pgliteOptions(), ...(await artifacts), dataDir: req.dataDir ?? undefined })
      await db.waitReady
      statements = new PreparedStatements(db)
      return null
    case 'query':
      return query(req.tx, req.sql, req.params, req.options)
    case 'begin':
      return begin()
    case 'end':
      return end(req.tx, req.commit)
    case 'close':
      await db?.close()
      db = null
      statements = null
      return null
  }
}

port.on('message', (req: WorkerRequest) => {
  handle(req).then(
    (value) => port.postMessage({ id: req.id, ok: true, value } satisfies WorkerResponse),
    (err) => port.postMessage({ id: req.id, ok: false, error: serialize(err) } satisfies WorkerResponse),
  )
})
