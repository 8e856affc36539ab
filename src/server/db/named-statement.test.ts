// executeNamed on the embedded database: the same rows as drizzle's own path (dates,
// times and intervals kept as PostgreSQL's text), in and out of transactions, seen by the query
// log, without building drizzle's prepared-query object for each call.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import type { PgDialect } from 'drizzle-orm/pg-core'
import { PgliteSession } from 'drizzle-orm/pglite'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type Database, openDatabase } from './client.ts'
import { executeNamed, placeholder as p } from './named-statement.ts'

const statement = (marker: string) => sql`
  select ${'2026-11-23T10:00:00.123Z'}::timestamptz as at, '2026-11-23 10:00:00'::timestamp as local,
    '1 day 02:00:00'::interval as span, '2026-11-23'::date as day,
    array['2026-11-23 10:00'::timestamptz] as stamps, 42::int as n, ${marker}::text as marker,
    '{"a":1}'::jsonb as doc, null::text as nothing`

const dirs: string[] = []
const seen: string[] = []
const databases: Record<string, Database> = {}
beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'loris-named-'))
  dirs.push(dir)
  // The app's thread (tests) and the worker thread (the shipped default): two clients.
  databases['in this thread'] = await openDatabase({ onQuery: (q) => seen.push(q) })
  databases['in the worker thread'] = await openDatabase({ dataDir: dir, onQuery: (q) => seen.push(q) })
}, 120_000)
afterAll(async () => {
  for (const database of Object.values(databases)) await database.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe.each(['in this thread', 'in the worker thread'])('executeNamed on PGlite %s', (where) => {
  it('answers the rows drizzle answers, without a prepared-query object per call', async () => {
    const { db } = databases[where]!
    const prepare = vi.spyOn(PgliteSession.prototype, 'prepareQuery')
    try {
      const ours = await executeNamed(db, statement('ours'))
      expect(prepare).not.toHaveBeenCalled()
      const drizzles = (await db.execute(statement('ours'))) as unknown as { rows: unknown[] }
      expect(prepare).toHaveBeenCalled()
      expect(ours.rows).toEqual(drizzles.rows)
      expect(ours.rows[0]).toMatchObject({ n: 42, marker: 'ours', doc: { a: 1 }, nothing: null })
      // Kept as text, as drizzle's driver keeps them (the app maps them itself).
      expect(typeof ours.rows[0]?.at).toBe('string')
      expect(typeof ours.rows[0]?.span).toBe('string')
    } finally {
      prepare.mockRestore()
    }
  })

  it('runs inside a transaction and is rolled back with it; the query log sees it', async () => {
    const { db } = databases[where]!
    await db.execute(sql`create table if not exists named_probe (v text)`)
    const marker = `rolled-back-${where}`
    await db
      .transaction(async (tx) => {
        await executeNamed(tx, sql`insert into named_probe (v) values (${marker})`)
        const inside = await executeNamed<{ n: number }>(
          tx,
          sql`select count(*)::int as n from named_probe where v = ${marker}`,
        )
        expect(inside.rows[0]?.n).toBe(1)
        throw new Error('undo')
      })
      .catch(() => undefined)
    const after = await executeNamed<{ n: number }>(
      db,
      sql`select count(*)::int as n from named_probe where v = ${marker}`,
    )
    expect(after.rows[0]?.n).toBe(0)
    expect(seen.some((q) => q.includes('insert into named_probe'))).toBe(true)
  })
})

describe('a statement built once per shape', () => {
  it('writes its text once, then runs with each call’s values; another shape gets its own', async () => {
    const { db } = databases['in this thread']!
    const builds: string[] = []
    const shapedSelect = (tag: string, values: Record<string, unknown>) =>
      executeNamed<{ n: number; word: string | null }>(db, {
        shape: `probe:${tag}`,
        build: () => {
          builds.push(tag)
          const extra = tag === 'plus' ? sql` + 1000` : sql``
          return sql`select ${p('n')}::int * ${7}::int ${extra} as n, ${p('word')}::text as word`
        },
        values,
      })
    const sqlToQuery = vi.spyOn((db as unknown as { dialect: PgDialect }).dialect, 'sqlToQuery')
    try {
      expect((await shapedSelect('plain', { n: 2, word: 'two' })).rows).toEqual([{ n: 14, word: 'two' }])
      expect((await shapedSelect('plain', { n: 3, word: null })).rows).toEqual([{ n: 21, word: null }])
      expect((await shapedSelect('plus', { n: 3, word: 'x' })).rows).toEqual([{ n: 1021, word: 'x' }])
      expect((await shapedSelect('plain', { n: 4, word: 'four' })).rows).toEqual([{ n: 28, word: 'four' }])
      // Built (and written to text) once per shape, not once per call.
      expect(builds).toEqual(['plain', 'plus'])
      expect(sqlToQuery).toHaveBeenCalledTimes(2)
      // A value the text names but the call left out is an error, not a null.
      expect(() => shapedSelect('plain', { n: 5 })).toThrow(/No value for placeholder "word"/)
    } finally {
      sqlToQuery.mockRestore()
    }
  })
})
