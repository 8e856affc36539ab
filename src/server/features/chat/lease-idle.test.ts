// The lease sweep on an idle server: every node sweeps every SWEEP_MS, so a sweep that
// finds nothing must cost as little as it can: two statements, no transaction.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { users } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { sweepLeases } from './lease.ts'

/** Statements apart from begin and commit (logged on PostgreSQL, not by the embedded thread). */
const statements = (queries: string[]) => queries.filter((q) => !/^\s*(begin|commit)\b/i.test(q))

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

describe('a lease sweep with nothing to do', () => {
  it('runs two statements and opens no transaction; with a reservation held, it reconciles', async () => {
    const { user } = await t.signUp()
    const db = t.deps.database.db
    const transactions = vi.spyOn(db, 'transaction')
    t.queries.length = 0
    expect(await sweepLeases(db, t.deps.log)).toEqual([])
    expect(statements(t.queries)).toHaveLength(2)
    expect(transactions).not.toHaveBeenCalled()

    // A reservation nothing holds any more (its reply deleted while its node was down).
    await db
      .update(users)
      .set({ aiReservedChars: 40, aiGenerating: 1 })
      .where(eq(users.id, user.id as string))
    t.queries.length = 0
    await sweepLeases(db, t.deps.log)
    // The check, then the transaction's two: the users locked, their reservations set.
    expect(statements(t.queries)).toHaveLength(4)
    expect(transactions).toHaveBeenCalledTimes(1)
    expect(t.queries.some((q) => /for update skip locked/.test(q) && /from users/.test(q))).toBe(true)
    const [after] = await db
      .select({ reserved: users.aiReservedChars, generating: users.aiGenerating })
      .from(users)
      .where(eq(users.id, user.id as string))
    expect(after).toEqual({ reserved: 0, generating: 0 })
  })
})
