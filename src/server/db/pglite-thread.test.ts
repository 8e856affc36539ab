// The embedded database in its worker thread (decision 017): the app's statements, transactions
// (committed, rolled back, nested) and PostgreSQL's errors work as in the app's thread, and a long
// query does not stop the app's event loop, and the thread yields the cores to it (decision 073).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { getPriority, tmpdir } from 'node:os'
import path from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from './client.ts'
import { DB_THREAD_NICENESS } from './pglite-options.ts'
import { users } from './schema/index.ts'

let dir: string
let database: Database
const threads = () => readdirSync('/proc/self/task').map(Number)
/** A thread's niceness (getpriority(2) takes a thread's id on Linux); null if it has ended. */
const niceness = (tid: number) => {
  try {
    return getPriority(tid)
  } catch {
    return null
  }
}
let threadsBefore: number[]
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'loris-pglite-thread-'))
  // Linux only (/proc): the threads before the database's starts, to find its own.
  threadsBefore = process.platform === 'linux' ? threads() : []
  database = await openDatabase({ dataDir: dir })
}, 120_000)
afterAll(async () => {
  await database?.close()
  rmSync(dir, { recursive: true, force: true })
})

const email = (name: string) => `${name}-${Date.now()}@example.com`

/** How many 1 ms timer ticks the event loop ran while `work` was pending. */
async function ticksDuring(work: () => Promise<unknown>): Promise<number> {
  let ticks = 0
  const timer = setInterval(() => ticks++, 1)
  try {
    await work()
  } finally {
    clearInterval(timer)
  }
  return ticks
}

const HEAVY = sql`select count(*) from generate_series(1, 3000000) as g(x) where x % 7 = 3`

describe('PGlite in a worker thread', () => {
  it('migrates, reads and writes through drizzle', async () => {
    const { db } = database
    const address = email('plain')
    const [row] = await db.insert(users).values({ email: address }).returning()
    expect(row?.email).toBe(address)
    const [again] = await db.select().from(users).where(eq(users.id, row!.id))
    expect(again?.createdAt).toBeInstanceOf(Date)
  })

  it('commits, rolls back and nests transactions; errors keep their PostgreSQL code', async () => {
    const { db } = database
    const kept = email('kept')
    const lost = email('lost')
    await db.transaction(async (tx) => {
      await tx.insert(users).values({ email: kept })
      await tx
        .transaction(async (inner) => {
          await inner.insert(users).values({ email: lost })
          throw new Error('undo the inner part')
        })
        .catch(() => undefined)
    })
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(users).values({ email: lost })
        throw new Error('undo all')
      }),
    ).rejects.toThrow('undo all')
    const found = await db.select({ email: users.email }).from(users)
    expect(found.map((u) => u.email)).toContain(kept)
    expect(found.map((u) => u.email)).not.toContain(lost)

    const duplicate = await db
      .insert(users)
      .values({ email: kept })
      .then(() => null)
      .catch((err: unknown) => err)
    expect(
      (duplicate as { cause?: { code?: string }; code?: string })?.cause?.code ??
        (duplicate as { code?: string })?.code,
    ).toBe('23505')
  })

  it.runIf(process.platform === 'linux')('runs at a lower CPU priority than the app thread', () => {
    const started = threads().filter((tid) => !threadsBefore.includes(tid))
    expect(started.map(niceness)).toContain(DB_THREAD_NICENESS)
    expect(niceness(process.pid)).toBeLessThan(DB_THREAD_NICENESS)
  })

  it('leaves the event loop free during a long query (it is stopped in the app thread)', async () => {
    const inThread = await openDatabase({ pgliteThread: false })
    try {
      const blocked = await ticksDuring(() => inThread.db.execute(HEAVY))
      const free = await ticksDuring(() => database.db.execute(HEAVY))
      expect(blocked).toBeLessThanOrEqual(1)
      expect(free).toBeGreaterThan(5)
    } finally {
      await inThread.close()
    }
  }, 60_000)
})
