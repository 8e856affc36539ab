// Statements run on every chat send, prepared by name (issue 15): on PostgreSQL a named statement
// is parsed and planned once per connection (node-postgres keeps it), not on every send; the
// send's start is a CTE of a dozen parts whose planning was a good part of its time. PGlite has no
// named statements: the same call runs the statement as `execute` would.
import type { SQL } from 'drizzle-orm'
import type { PgDialect, PgSession } from 'drizzle-orm/pg-core'
import type { Db, Tx } from './client.ts'

/** One name per distinct statement text in this process (a connection never sees a name reused). */
const names = new Map<string, string>()

/** Distinct statements named so far (tests: the same send reuses its statements). */
export const namedStatements = () => names.size

export function executeNamed<Row extends Record<string, unknown>>(
  db: Db | Tx,
  statement: SQL,
): Promise<{ rows: Row[] }> {
  // drizzle's own parts, typed as internal: the SQL it builds and the session that runs it.
  const { dialect, session } = db as unknown as { dialect: PgDialect; session: PgSession }
  const query = dialect.sqlToQuery(statement)
  let name = names.get(query.sql)
  if (!name) {
    name = `loris_${names.size + 1}`
    names.set(query.sql, name)
  }
  return session.prepareQuery(query, undefined, name, false).execute() as Promise<{ rows: Row[] }>
}
