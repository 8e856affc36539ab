// The embedded database seen from the app's thread (decision 017): the subset of PGlite's
// interface drizzle's pglite driver uses (`query`, `transaction`), each call a message to the
// worker that owns the database (pglite-worker.ts). Results come back as plain data.
import type { Worker } from 'node:worker_threads'
import type { PGlite } from '@electric-sql/pglite'
import { startWorkerBeside } from '#server/lib/worker-thread.ts'
import {
  type DrizzleQueryConfig,
  queryOptionsOf,
  type SerializedError,
  type WorkerRequest,
  type WorkerResponse,
} from './pglite-protocol.ts'

// The thread's own JavaScript is small (rows in, rows out): V8's default young generation (tens
// of MB, sized for the app's thread) only raised its resident memory (decision 022).
const startWorker = () => startWorkerBeside(import.meta.url, 'pglite-worker', { maxYoungGenerationSizeMb: 8 })

/** An error from the worker, with PostgreSQL's fields (code, constraint...) as PGlite has them. */
function revive(e: SerializedError): Error {
  const err = new Error(e.message)
  err.name = e.name
  Object.assign(err, e.fields)
  return err
}

type Send = (req: DistributiveOmit<WorkerRequest, 'id'>) => Promise<unknown>
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never

class TxClient {
  constructor(
    private readonly send: Send,
    private readonly tx: number,
  ) {}

  query(sql: string, params: unknown[] = [], config?: DrizzleQueryConfig) {
    return this.send({ kind: 'query', tx: this.tx, sql, params, options: queryOptionsOf(config) })
  }
}

export class PGliteThread {
  private readonly worker: Worker
  private nextId = 1
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>()
  private failure: Error | null = null

  private constructor() {
    this.worker = startWorker()
    this.worker.on('message', (res: WorkerResponse) => {
      const waiting = this.pending.get(res.id)
      if (!waiting) return
      this.pending.delete(res.id)
      if (res.ok) waiting.resolve(res.value)
      else waiting.reject(revive(res.error))
    })
    const fail = (err: Error) => {
      this.failure = err
      for (const waiting of this.pending.values()) waiting.reject(err)
      this.pending.clear()
    }
    this.worker.on('error', fail)
    this.worker.on('exit', (code) => fail(new Error(`the database thread stopped (code ${code})`)))
  }

  /**
   * Starts the thread; it begins compiling PostgreSQL's WebAssembly at once, while the caller
   * prepares the data directory (decision 022). Then `open` it, or `close` it.
   */
  static start(): PGliteThread {
    return new PGliteThread()
  }

  /** Opens the database in `dataDir` (in memory when null) in a new worker thread. */
  static async open(dataDir: string | null): Promise<PGliteThread> {
    const thread = PGliteThread.start()
    await thread.open(dataDir)
    return thread
  }

  /** Opens the database in `dataDir` (in memory when null); the thread is ended if it fails. */
  async open(dataDir: string | null): Promise<void> {
    try {
      await this.send({ kind: 'open', dataDir })
    } catch (err) {
      await this.worker.terminate()
      throw err
    }
  }

  private readonly send: Send = (req) => {
    if (this.failure) return Promise.reject(this.failure)
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      this.worker.postMessage({ ...req, id })
    })
  }

  query(sql: string, params: unknown[] = [], config?: DrizzleQueryConfig) {
    return this.send({ kind: 'query', tx: null, sql, params, options: queryOptionsOf(config) })
  }

  /** Runs `fn` in one transaction in the worker: committed if it resolves, rolled back if not. */
  async transaction<T>(fn: (tx: TxClient) => Promise<T>): Promise<T> {
    const tx = (await this.send({ kind: 'begin' })) as number
    let result: T
    try {
      result = await fn(new TxClient(this.send, tx))
    } catch (err) {
      await this.send({ kind: 'end', tx, commit: false }).catch(() => undefined)
      throw err
    }
    await this.send({ kind: 'end', tx, commit: true })
    return result
  }

  async close(): Promise<void> {
    if (!this.failure) await this.send({ kind: 'close' }).catch(() => undefined)
    await this.worker.terminate()
  }

  /** Drizzle's pglite driver takes this in place of a PGlite. */
  asPGlite(): PGlite {
    return this as unknown as PGlite
  }
}
