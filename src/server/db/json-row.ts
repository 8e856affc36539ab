// A row as one JSON text written by PostgreSQL (decision 024): a list page reads one
// field per row instead of one per column. Each field costs the embedded database a parse and a
// copy in JavaScript and a clone between threads, and drizzle a mapping; a page of 30 messages
// would be 600 of them. Times are written as JavaScript's toISOString writes them.
import { getTableColumns, is, type SQL, sql, type Table } from 'drizzle-orm'
import { type AnyPgColumn, PgTimestamp } from 'drizzle-orm/pg-core'

/** A timestamptz as toISOString writes it: UTC, milliseconds (truncated, as a Date keeps them). */
export const isoTimestamp = (value: AnyPgColumn | SQL) =>
  sql<string>`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

const KEY = /^[A-Za-z][A-Za-z0-9]*$/

/**
 * `json_build_object(...)::text` of these keys: a timestamp column as `isoTimestamp`, any other
 * column or expression as PostgreSQL writes it in JSON (jsonb nested, booleans and numbers bare).
 */
export function jsonRow(fields: Record<string, AnyPgColumn | SQL>): SQL<string> {
  const parts = Object.entries(fields).map(([key, value]) => {
    // Keys are this code's own names, written into the SQL as literals.
    if (!KEY.test(key)) throw new Error(`jsonRow: unexpected key ${key}`)
    return sql`${sql.raw(`'${key}'`)}, ${is(value, PgTimestamp) ? isoTimestamp(value) : value}`
  })
  return sql<string>`json_build_object(${sql.join(parts, sql`, `)})::text`
}

/** Some of a table's columns by their field names, for `jsonRow` (a page's JSON keys). */
export function columnsOf<T extends Table>(table: T, fields: readonly (keyof T['_']['columns'] & string)[]) {
  const columns = getTableColumns(table) as Record<string, AnyPgColumn>
  return Object.fromEntries(fields.map((field) => [field, columns[field] as AnyPgColumn]))
}
