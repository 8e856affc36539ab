// Opaque page cursors: the sort key of the last row a page showed, so the next page
// starts right after it through an index, however long the list. The key's timestamp is kept
// as PostgreSQL wrote it (microseconds), since a JavaScript Date would round it to milliseconds
// and skip or repeat rows that differ below that.
import { sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { AppError } from './app-error.ts'

export function badCursor(): AppError {
  return new AppError('bad_request:cursor', 'This page link is not valid; reload the list')
}

export function encodeCursor(parts: string[]): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url')
}

/** The cursor's parts, or a 400 when it is not one this server wrote with `count` parts (or one of them). */
export function decodeCursor(cursor: string, count: number | number[]): string[] {
  const counts = typeof count === 'number' ? [count] : count
  let parts: unknown
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    parts = null
  }
  if (
    !Array.isArray(parts) ||
    !counts.includes(parts.length) ||
    !parts.every((p) => typeof p === 'string' && p.length <= 64)
  )
    throw badCursor()
  return parts as string[]
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * A moment as `exactTimestamp` writes it, and a real one: the shape alone lets 2024-13-45T99:99
 * through to PostgreSQL, which refuses it with an error (a 500) rather than an empty page.
 */
export function isExactTimestamp(value: unknown): value is string {
  if (typeof value !== 'string' || !TIMESTAMP.test(value)) return false
  const ms = Date.parse(value)
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 19) === value.slice(0, 19)
}

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value)

export function cursorTimestamp(value: string | undefined): string {
  if (!isExactTimestamp(value)) throw badCursor()
  return value
}

export function cursorUuid(value: string | undefined): string {
  if (!isUuid(value)) throw badCursor()
  return value
}

/** A timestamptz column as exact UTC text (microseconds), for a cursor. */
export const exactTimestamp = (column: AnyPgColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
