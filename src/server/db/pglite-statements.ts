// The embedded database's statements, each prepared once by name (decision 024).
// PGlite's `query` makes six calls into PostgreSQL's WebAssembly for every statement (Parse,
// Describe, Bind, Describe, Execute, Sync), and PostgreSQL parses and analyses the text each
// time: about three quarters of a small statement's cost. Here a statement's text is prepared the
// first time it is seen, and from then on runs as one call (Bind, Describe, Execute, Sync), as
// node-postgres does with a named statement on a server. Results and errors are PGlite's own.
import { type PGlite, parse, protocol, type Results, type Transaction } from '@electric-sql/pglite'
import { type DrizzleQueryConfig, type QueryOptions, queryOptionsOf } from './pglite-protocol.ts'

const { serialize } = protocol

/**
 * Statements kept prepared: the app's distinct statement texts, with room for the ones whose
 * text varies (an `in (...)` list of any length); the least recently used is closed beyond it.
 */
export const MAX_PREPARED = 256

// Only the statements an app repeats; anything else (DDL, transaction control, settings) runs
// as PGlite runs it. A prepared statement outlives a schema change: PostgreSQL re-plans it.
const PREPARABLE = /^\s*(?:select|insert|update|delete|with)\b/i

/** Names are unique in the process: two caches over one database never collide. */
let named = 0

interface Prepared {
  name: string
  /** Parameter type OIDs, as PostgreSQL inferred them: each value is serialised by its type. */
  types: number[]
}

export class PreparedStatements {
  /** Insertion order is recency: a use moves the statement to the end. */
  private readonly prepared = new Map<string, Prepared>()
  /** PGlite's parsers with some types' text kept, by those types (merged once, not per row set). */
  private readonly parsers = new Map<string, PGlite['parsers']>()
  /** Close messages for statements dropped from the cache, sent with the next call. */
  private closing: Uint8Array[] = []
  /** Calls into PostgreSQL made here (tests count them: one per prepared statement run). */
  calls = 0

  constructor(
    private readonly db: PGlite,
    private readonly max = MAX_PREPARED,
  ) {}

  /** Statements prepared now (tests). */
  get size(): number {
    return this.prepared.size
  }

  /**
   * Runs one statement, as `query` would: outside a transaction when `tx` is absent (waiting for
   * any open one to end), or as part of the open transaction `tx` (which holds PGlite's
   * transaction lock; the query lock still orders its statements).
   */
  async query<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}, tx?: Transaction) {
    // Open, and not closing (what PGlite's own `query` checks first); only then are its parsers
    // complete (the array types' are read from the database as it opens).
    await this.db._checkReady()
    const parsers = this.parsersKeeping(options.rawTypes)
    if (!PREPARABLE.test(sql)) {
      const own = { rowMode: options.rowMode, parsers }
      return tx ? tx.query<T>(sql, params, own) : this.db.query<T>(sql, params, own)
    }
    const run = () => this.db.runExclusive(() => this.run<T>(sql, params, options.rowMode, parsers))
    if (tx) return run()
    return this.db._runExclusiveTransaction(async () => {
      const result = await run()
      await this.db.syncToFs()
      return result
    })
  }

  /** PGlite's own parsers, but for `rawTypes`, whose text is kept as is. */
  private parsersKeeping(rawTypes: number[] = []): PGlite['parsers'] {
    const key = rawTypes.join(',')
    let parsers = this.parsers.get(key)
    if (!parsers) {
      const keep = (text: string) => text
      parsers = { ...this.db.parsers, ...Object.fromEntries(rawTypes.map((oid) => [oid, keep])) }
      this.parsers.set(key, parsers)
    }
    return parsers
  }

  private async run<T>(
    sql: string,
    params: unknown[],
    rowMode: QueryOptions['rowMode'],
    parsers: PGlite['parsers'],
  ): Promise<Results<T>> {
    let statement = this.prepared.get(sql)
    if (statement) {
      this.prepared.delete(sql)
      this.prepared.set(sql, statement)
    } else {
      statement = await this.prepare(sql)
    }
    const values = params.map((value, i) => {
      if (value == null) return null
      const type = statement.types[i] as number
      const serializer = this.db.serializers[type]
      return serializer ? serializer(value) : String(value)
    })
    const messages = await this.exec([
      serialize.bind({ statement: statement.name, values }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ])
    return parse.parseResults(messages, parsers, { rowMode })[0] as Results<T>
  }

  /** Parses and describes the statement under a new name; kept only if PostgreSQL accepted it. */
  private async prepare(sql: string): Promise<Prepared> {
    const name = `loris_s${++named}`
    const messages = await this.exec([
      serialize.parse({ name, text: sql }),
      serialize.describe({ type: 'S', name }),
      serialize.sync(),
    ])
    const statement = { name, types: parse.parseDescribeStatementResults(messages) }
    this.prepared.set(sql, statement)
    if (this.prepared.size > this.max) {
      const [oldestSql, oldest] = this.prepared.entries().next().value as [string, Prepared]
      this.prepared.delete(oldestSql)
      this.closing.push(serialize.close({ type: 'S', name: oldest.name }))
    }
    return statement
  }

  /** One call into PostgreSQL; a statement's error (after its Sync) is thrown as PGlite throws it. */
  private exec(parts: Uint8Array[]) {
    const all = this.closing.length ? [...this.closing, ...parts] : parts
    this.closing = []
    let length = 0
    for (const part of all) length += part.length
    const message = new Uint8Array(length)
    let at = 0
    for (const part of all) {
      message.set(part, at)
      at += part.length
    }
    this.calls++
    return this.db.execProtocolStream(message, { syncToFs: false })
  }
}

/**
 * An in-process PGlite (the tests' in-memory database) seen through its prepared statements: the
 * part of PGlite's interface drizzle uses (`query`, `transaction`), as the worker thread offers.
 */
export function withPreparedStatements(db: PGlite): PGlite {
  const statements = new PreparedStatements(db)
  const client = {
    query: <T>(sql: string, params?: unknown[], config?: DrizzleQueryConfig) =>
      statements.query<T>(sql, params, queryOptionsOf(config)),
    transaction: <T>(fn: (tx: Transaction) => Promise<T>) =>
      db.transaction((tx) => {
        // The transaction as PGlite gives it (its `closed`, `rollback`...), its statements prepared.
        const prepared: Transaction = Object.create(tx)
        prepared.query = (sql, params, config) =>
          statements.query(sql, params, queryOptionsOf(config as DrizzleQueryConfig), tx)
        return fn(prepared)
      }),
  }
  return client as unknown as PGlite
}
