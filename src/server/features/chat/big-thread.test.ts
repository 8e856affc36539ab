// @runs-alone: measures time on the main thread and the database's, so runs after the other files.
// A thread of 10,000 exchanges costs what a page shows (decision 048): a version switch between its
// two long branches and a page of it (asked with a limit or without) each hold the database and
// the main thread under 300 ms at a time, and each answers one page. The database runs in its
// worker thread, as shipped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MESSAGES_PAGE_SIZE, type MessagePage, messagePageSchema } from '#contract/messages.ts'
import type { Db } from '#server/db/client.ts'
import { messages } from '#server/db/schema/index.ts'
import { activeBranch } from '#server/lib/branch.ts'
import { worstStalls } from '../../../../tests/helpers/stall.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { ownerWithThread, turnsOf, twoBranchThread } from '../../../../tests/helpers/thread-kit.ts'
import { SELECTS_PER_MINUTE } from './routes.ts'
import { shownLeaf, showRows, switchVersion } from './shown-branch.ts'

const STALL_GOAL_MS = 300
const TURNS = 5000

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({}, {}, { pgliteThread: true })
}, 60_000)
afterAll(() => t?.close())

const db = () => t.deps.database.db

/** The ids the thread marks shown, by depth, and the branch lib/branch.ts computes from its tree. */
async function shownAndExpected(threadId: string) {
  const rows = await turnsOf(db(), threadId)
  const shown = rows
    .filter((r) => r.shown)
    .sort((a, b) => a.depth - b.depth)
    .map((r) => r.id)
  return { shown, expected: activeBranch(rows).map((e) => e.row.id) }
}

async function select(cookie: string, id: string) {
  return t.request(`/api/messages/${id}/select`, { method: 'POST', cookie })
}

describe('a thread of 10,000 exchanges', () => {
  // The stall includes time the OS did not run a thread: two more tries on a loaded machine.
  it('switches between its two long branches holding nothing 300 ms, answering their newest page', {
    retry: 2,
    timeout: 300_000,
  }, async () => {
    const big = await twoBranchThread(t, TURNS)
    // The last exchange of the branch not shown (a search match), then the other's first turn.
    for (const [id, branch] of [
      [big.b.at(-1)!, big.b],
      [big.a[0]!, big.a],
      [big.b[0]!, big.b],
    ] as const) {
      const { value, stallMs, dbStallMs } = await worstStalls(db(), async () => {
        const res = await select(big.cookie, id)
        return { status: res.status, body: await res.json() }
      })
      console.info(`switch: loop ${stallMs.toFixed(0)} ms, database ${dbStallMs.toFixed(0)} ms`)
      expect(value.status).toBe(200)
      const page: MessagePage = messagePageSchema.parse(value.body)
      expect(page.items.map((m) => m.id)).toEqual(branch.slice(-MESSAGES_PAGE_SIZE))
      expect(page.nextCursor).not.toBeNull()
      expect(page.items[0]?.versionIds).toHaveLength(1)
      expect(stallMs).toBeLessThan(STALL_GOAL_MS)
      expect(dbStallMs).toBeLessThan(STALL_GOAL_MS)
      const { shown, expected } = await shownAndExpected(big.thread.id)
      expect(shown).toEqual(branch)
      expect(expected).toEqual(branch)
    }
    // The thread read without a limit: its newest page too, never the whole thread.
    const { value, stallMs, dbStallMs } = await worstStalls(db(), async () => {
      const res = await t.request(`/api/messages?threadId=${big.thread.id}`, { cookie: big.cookie })
      return messagePageSchema.parse(await res.json())
    })
    expect(value.items.map((m) => m.id)).toEqual(big.b.slice(-MESSAGES_PAGE_SIZE))
    expect(value.nextCursor).not.toBeNull()
    expect(stallMs).toBeLessThan(STALL_GOAL_MS)
    expect(dbStallMs).toBeLessThan(STALL_GOAL_MS)
  })
})

describe('a version switch in steps', () => {
  /** Two versions of the first turn, each followed by `turns - 1` exchanges; the first shown. */
  const small = (turns: number) => twoBranchThread(t, turns)

  it('moves the flags a few rows a step to the branch lib/branch.ts computes, wherever it parts', async () => {
    const big = await small(9)
    // A version deep in the branch not shown, its first turn, then back, two rows a step.
    for (const id of [big.b[6]!, big.a[3]!, big.b[0]!, big.a[8]!]) {
      await switchVersion(db(), big.userId, id, new Date(), { batch: 2 })
      const { shown, expected } = await shownAndExpected(big.thread.id)
      expect(shown).toEqual(expected)
      expect(shown).toContain(id)
    }
    // A third version of the fifth turn of a: its branch ends there.
    const [third] = await db()
      .insert(messages)
      .values({
        userId: big.userId,
        threadId: big.thread.id,
        parentId: big.a[3]!,
        depth: 4,
        content: 'another fifth turn',
        chatModel: 'loris',
        status: 'complete',
      })
      .returning()
    await switchVersion(db(), big.userId, third!.id, new Date(), { batch: 2 })
    const { shown, expected } = await shownAndExpected(big.thread.id)
    expect(shown).toEqual([...big.a.slice(0, 4), third!.id])
    expect(expected).toEqual(shown)
  })

  it('stops where a send wrote the end of the branch between its steps', async () => {
    const big = await small(6)
    await switchVersion(db(), big.userId, big.b[0]!, new Date(), { batch: 2 })
    // A send lands between two steps of the switch back to branch a, once a's first two turns
    // are shown: it follows the end shown at that moment, as send-statement.ts does.
    let sent: string | null = null
    const base = db()
    const between = Object.create(base) as Db
    between.transaction = (async (fn: Parameters<Db['transaction']>[0]) => {
      const result = await base.transaction(fn)
      const end = await shownLeaf(base, big.thread.id)
      if (!sent && end === big.a[1]) {
        const [row] = await base
          .insert(messages)
          .values({
            userId: big.userId,
            threadId: big.thread.id,
            parentId: end,
            depth: 2,
            content: 'sent meanwhile',
            chatModel: 'loris',
            status: 'complete',
          })
          .returning()
        sent = row!.id
        await showRows(base, big.thread.id, [{ id: row!.id, depth: 2 }])
      }
      return result
    }) as Db['transaction']
    await switchVersion(between, big.userId, big.a[0]!, new Date(), { batch: 2 })
    expect(sent).not.toBeNull()
    const { shown, expected } = await shownAndExpected(big.thread.id)
    // The rule of lib/branch.ts takes the newest exchange at that turn: the send's.
    expect(expected).toEqual([big.a[0], big.a[1], sent])
    expect(shown).toEqual(expected)
  })

  it(`answers 429 past ${SELECTS_PER_MINUTE} switches a minute, saying when to try again`, async () => {
    const owner = await ownerWithThread(t)
    const first = await owner.add('one', 'reply')
    const second = await db()
      .insert(messages)
      .values({
        userId: owner.userId,
        threadId: owner.thread.id,
        content: 'one, edited',
        chatModel: 'loris',
        status: 'complete',
      })
      .returning()
    const ids = [first.id, second[0]!.id]
    for (let i = 0; i < SELECTS_PER_MINUTE; i++)
      expect((await select(owner.cookie, ids[i % 2]!)).status).toBe(200)
    const refused = await select(owner.cookie, first.id)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    expect((await refused.json()).message).toMatch(
      new RegExp(`switch versions ${SELECTS_PER_MINUTE} times a minute\\. Please try again in \\d+ seconds`),
    )
  })
})
