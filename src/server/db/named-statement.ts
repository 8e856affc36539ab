// Statements run on every chat send, prepared by name: on PostgreSQL a named statement
// is parsed and planned once per connection (node-postgres keeps it), not on every send; the
// send's start is a CTE of a dozen parts whose planning was a good part of its time. PGlite has no
// named statements (the worker prepares each text once, pglite-statements.ts): there the text goes
// to the client as drizzle's own prepared query would send it, without building that object.

import { types } from '@electric-sql/pglite'
import { fillPlaceholders, is, type Query, SQL, sql } from 'drizzle-orm'
import type { PgDialect, PgSession } from 'drizzle-orm/pg-core'
import { PgliteSession } from 'drizzle-orm/pglite'
import type { Db, Tx } from './client.ts'

/** One name per distinct statement text in this process (a connection never sees a name reused). */
const names = new Map<string, string>()

/** Distinct statements named so far (tests: the same send reuses its statements). */
export const namedStatements = () => names.size

const keepText = (value: unknown) => value
/**
 * What drizzle's pglite driver passes for a statement without typed fields: rows as objects, and
 * dates, times, intervals and their arrays kept as PostgreSQL's text. One object for every call:
 * the thread's client reads its kept types once per config object (pglite-protocol.ts).
 */
const OBJECT_ROWS = {
  rowMode: 'object',
  parsers: Object.fromEntries(
    // numeric[], timestamp[], timestamptz[], interval[] and date[] by number, as drizzle has them.
    [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map(
      (oid) => [oid, keepText],
    ),
  ),
} as const

/** The parts of drizzle's pglite session used here (private in its types). */
interface PgliteSessionParts {
  client: { query(sql: string, params: unknown[], config: typeof OBJECT_ROWS): Promise<unknown> }
  logger: { logQuery(sql: string, params: unknown[]): void }
}

/**
 * A statement whose text depends only on `shape`: `build` writes it with `sql.placeholder(name)`
 * for each of `values`, and runs once per shape. Writing a send's start (4 KB of text from a few
 * dozen fragments) was about 0.15 ms of a cold send at one stream; a run then only
 * fills the values in. Two shapes must never build different texts under one name.
 */
export interface ShapedStatement {
  shape: string
  build: () => SQL
  values: Record<string, unknown>
}

/** A value of a ShapedStatement, named in its text and given in `values` at each run. */
export const placeholder = (name: string) => sql.placeholder(name)

/** A placeholder for each of `names`, by name: what `build` writes where each value goes. */
export function placeholders<Name extends string>(names: readonly Name[]): Record<Name, unknown> {
  return Object.fromEntries(names.map((name) => [name, placeholder(name)])) as Record<Name, unknown>
}

/**
 * The ShapedStatement of a `kind` of statement (the start of a send, a page) in one `shape`, keyed
 * by the whole shape: a field added to a shape cannot share another shape's text.
 */
export function shapedStatement(
  kind: string,
  shape: object,
  build: () => SQL,
  values: Record<string, unknown>,
): ShapedStatement {
  return { shape: `${kind}:${JSON.stringify(shape)}`, build, values }
}

/** Texts (and their parameters, placeholders among them) by shape. */
const shaped = new Map<string, Query>()

function queryOf(dialect: PgDialect, statement: SQL | ShapedStatement): Query {
  if (is(statement, SQL)) return dialect.sqlToQuery(statement)
  let query = shaped.get(statement.shape)
  if (!query) {
    query = dialect.sqlToQuery(statement.build())
    shaped.set(statement.shape, query)
  }
  return { sql: query.sql, params: fillPlaceholders(query.params, statement.values) }
}

export function executeNamed<Row extends Record<string, unknown>>(
  db: Db | Tx,
  statement: SQL | ShapedStatement,
): Promise<{ rows: Row[] }> {
  // drizzle's own parts, typed as internal: the SQL it builds and the session that runs it.
  const { dialect, session } = db as unknown as { dialect: PgDialect; session: PgSession }
  const query = queryOf(dialect, statement)
  let name = names.get(query.sql)
  if (!name) {
    name = `loris_${names.size + 1}`
    names.set(query.sql, name)
  }
  // On the embedded database drizzle would build a prepared-query object (a dozen closures and
  // two parser tables) for this one call: about a third of a millisecond of a cold send's start
  // at one stream. The client gets the same text, values and config directly.
  if (is(session, PgliteSession)) {
    const { client, logger } = session as unknown as PgliteSessionParts
    logger.logQuery(query.sql, query.params)
    return client.query(query.sql, query.params, OBJECT_ROWS) as Promise<{ rows: Row[] }>
  }
  return session.prepareQuery(query, undefined, name, false).execute() as Promise<{ rows: Row[] }>
}
