// The embedded database's prepared statements (decision 024): the same rows and errors as
// PGlite's own `query`, one call into PostgreSQL per repeated statement, and a bounded cache.
import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PreparedStatements, withPreparedStatements } from './pglite-statements.ts'

let db: PGlite
beforeAll(async () => {
  db = await PGlite.create()
  await db.exec(`
    create table items (
      id uuid primary key default gen_random_uuid(),
      name text not null unique,
      at timestamptz not null default now(),
      data jsonb,
      flag boolean not null default false,
      n integer
    )`)
})
afterAll(() => db.close())

const prepared = (max?: number) => new PreparedStatements(db, max)
const preparedNames = async () =>
  (await db.query<{ n: number }>(`select count(*)::int as n from pg_prepared_statements`)).rows[0]?.n

describe('PGlite statements prepared by name', () => {
  it('answers every kind of value as PGlite does, in object and array rows', async () => {
    const statements = prepared()
    const insert = `insert into items (name, at, data, flag, n) values ($1, $2, $3, $4, $5) returning *`
    const params = [
      'first',
      '2026-11-23T01:02:03.456789Z',
      JSON.stringify({ a: [1, 'two'], b: null }),
      true,
      7,
    ]
    const mine = await statements.query(insert, params)
    const theirs = await db.query(insert, ['second', ...params.slice(1)])
    expect(mine.fields).toEqual(theirs.fields)
    const { id: _a, name: _n, ...row } = mine.rows[0] as Record<string, unknown>
    const { id: _b, name: _m, ...same } = theirs.rows[0] as Record<string, unknown>
    expect(row).toEqual(same)
    expect(row.at).toBeInstanceOf(Date)
    expect(row.data).toEqual({ a: [1, 'two'], b: null })

    const select = `select name, n, data from items where name = any($1::text[]) and (n = $2 or $2 is null) order by name`
    for (const options of [{}, { rowMode: 'array' as const }]) {
      expect(await statements.query(select, [['first', 'second'], null], options)).toEqual(
        await db.query(select, [['first', 'second'], null], options),
      )
    }
    // A type's text kept as is (drizzle's own parsers for dates).
    const at = `select at from items where name = $1`
    const kept = await statements.query(at, ['first'], { rawTypes: [1184] })
    expect(kept).toEqual(await db.query(at, ['first'], { parsers: { 1184: (text: string) => text } }))
    expect(kept.rows).toEqual([{ at: '2026-11-23 01:02:03.456789+00' }])
    // ...and only for the statement that asked.
    expect((await statements.query<{ at: Date }>(at, ['first'])).rows[0]?.at).toBeInstanceOf(Date)
    // Two arrays, as the progress save sends them.
    const pairs = `select * from unnest($1::uuid[], $2::text[]) as t(id, text)`
    const ids = [crypto.randomUUID(), crypto.randomUUID()]
    expect((await statements.query(pairs, [ids, ['a "quoted", {braced}', 'é\n']])).rows).toEqual([
      { id: ids[0], text: 'a "quoted", {braced}' },
      { id: ids[1], text: 'é\n' },
    ])
  })

  it('parses array results from the first statement of a database still opening', async () => {
    const opening = new PGlite()
    try {
      const statements = new PreparedStatements(opening)
      const { rows } = await statements.query<{ a: string[] }>(`select array['x', $1::text] as a`, ['y'])
      expect(rows).toEqual([{ a: ['x', 'y'] }])
    } finally {
      await opening.close()
    }
  })

  it('prepares a statement once, then runs it in one call into PostgreSQL', async () => {
    const statements = prepared()
    const select = `select count(*)::int as n from items where flag = $1`
    await statements.query(select, [true])
    expect(statements.calls).toBe(2)
    for (let i = 0; i < 5; i++) await statements.query(select, [i % 2 === 0])
    expect(statements.calls).toBe(7)
    expect(statements.size).toBe(1)
    // Not a statement an app repeats: PGlite's own path, nothing prepared.
    await statements.query(`set application_name = 'loris-test'`)
    expect(statements.size).toBe(1)
  })

  it("throws PostgreSQL's errors with their fields, and a statement PostgreSQL refused is not kept", async () => {
    const statements = prepared()
    const insert = `insert into items (name) values ($1)`
    await statements.query(insert, ['unique-name'])
    const twice = await statements.query(insert, ['unique-name']).catch((e: unknown) => e)
    expect(twice).toMatchObject({ code: '23505', constraint: 'items_name_key' })
    // The statement still works after its error.
    await statements.query(insert, ['unique-name-2'])
    const refused = await statements
      .query(`select nonsense from items where id = $1`, ['x'])
      .catch((e: unknown) => e)
    expect(refused).toMatchObject({ code: '42703' })
    expect(statements.size).toBe(1)
  })

  it('keeps at most its limit, closing the least recently used', async () => {
    const before = await preparedNames()
    const statements = prepared(2)
    const one = `select 1 as one where $1::int > 0`
    await statements.query(one, [1])
    await statements.query(`select 2 as two where $1::int > 0`, [1])
    await statements.query(one, [1])
    await statements.query(`select 3 as three where $1::int > 0`, [1])
    expect(statements.size).toBe(2)
    // The Close goes with the next call: PostgreSQL then holds the two kept.
    expect((await statements.query(one, [1])).rows).toEqual([{ one: 1 }])
    expect(await preparedNames()).toBe((before ?? 0) + 2)
  })

  it('runs a prepared statement again after the schema changed under it', async () => {
    const statements = prepared()
    await statements.query(`insert into items (name, n) values ($1, $2)`, ['schema', 1])
    const read = `select n from items where name = $1`
    expect((await statements.query(read, ['schema'])).rows).toEqual([{ n: 1 }])
    await statements.query(`alter table items add column extra text`)
    await statements.query(`update items set n = $1 where name = $2`, [2, 'schema'])
    expect((await statements.query(read, ['schema'])).rows).toEqual([{ n: 2 }])
  })

  it('runs in transactions: their statements see their own writes, a rollback undoes them, others wait', async () => {
    const client = withPreparedStatements(db)
    const order: string[] = []
    const outside = `select count(*)::int as n from items where name like $1`
    const inTx = client.transaction(async (tx) => {
      await tx.query(`insert into items (name) values ($1)`, ['tx-a'])
      const seen = await tx.query<{ n: number }>(outside, ['tx-%'])
      order.push(`inside ${seen.rows[0]?.n}`)
      await tx.rollback()
    })
    const after = client
      .query<{ n: number }>(outside, ['tx-%'])
      .then((r) => order.push(`after ${r.rows[0]?.n}`))
    await Promise.all([inTx, after])
    expect(order).toEqual(['inside 1', 'after 0'])

    await client.transaction(async (tx) => {
      await tx.query(`insert into items (name) values ($1)`, ['tx-b'])
    })
    expect((await client.query<{ n: number }>(outside, ['tx-%'])).rows).toEqual([{ n: 1 }])
  })
})
