// A crash leaves nothing hanging (issue 11, section 5): a reply whose node stopped renewing its
// lease is finished by the sweep within seconds, keeping its text and settling usage, and a retry
// of that send generates again at once instead of following a stream nobody writes.
import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { chatErrorCodes } from '#contract/chat-events.ts'
import { messages, threads, users } from '#server/db/schema/index.ts'
import { setUpAiTestApp } from '../../../../tests/helpers/ai-test-app.ts'
import { readEvents, waitFor } from '../../../../tests/helpers/chat.ts'
import { finishLapsed, LEASE_MS, LOST_NODE_MESSAGE, SWEEP_MS, startLeaseSweeper } from './lease.ts'

const app = setUpAiTestApp()

const db = () => app.t.deps.database.db
const send = (cookie: string, json: Record<string, unknown>) =>
  app.t.request('/api/messages', { method: 'POST', cookie, json })

const PARTIAL = 'The first half of an answer'
const CONTENT = 'a question whose node died'

/**
 * What a node killed mid-reply leaves behind: a streaming row with its saved progress, the user's
 * input reserved, and a heartbeat `ageMs` old that nobody will renew.
 */
async function orphanedReply(ageMs: number, clientMessageId: string) {
  const { cookie, user } = await app.t.signUp()
  const userId = user.id as string
  const [thread] = await db().select().from(threads).where(eq(threads.userId, userId))
  const [row] = await db()
    .insert(messages)
    .values({
      userId,
      threadId: thread?.id ?? null,
      clientMessageId,
      content: CONTENT,
      response: PARTIAL,
      chatModel: 'gemini',
      provider: 'google',
      modelId: 'gemini-test',
      reservedChars: CONTENT.length,
      nodeId: 'a-node-that-was-killed',
      heartbeatAt: sql`now() - make_interval(secs => ${ageMs / 1000})`,
    })
    .returning()
  await db().update(users).set({ aiReservedChars: CONTENT.length }).where(eq(users.id, userId))
  if (!row) throw new Error('no row')
  return { cookie, userId, row }
}

async function userUsage(userId: string) {
  const [u] = await db()
    .select({ input: users.aiInputChars, output: users.aiOutputChars, reserved: users.aiReservedChars })
    .from(users)
    .where(eq(users.id, userId))
  return u
}

const rowOf = async (id: string) => (await db().select().from(messages).where(eq(messages.id, id)))[0]

describe('lease sweep', () => {
  it('finishes a reply whose lease lapsed within one sweep period, keeping its text and settling usage', async () => {
    const { userId, row } = await orphanedReply(LEASE_MS + 5_000, 'dead-1')
    // A reply whose lease has a second left is left alone at start-up, then swept by a later round.
    const later = await orphanedReply(LEASE_MS - 1_000, 'later-1')
    const started = Date.now()
    const sweeper = startLeaseSweeper(db(), app.t.deps.log)
    try {
      const finished = await waitFor(async () => {
        const now = await rowOf(row.id)
        return now?.status !== 'streaming' ? now : undefined
      }, SWEEP_MS + 2_000)
      expect(Date.now() - started).toBeLessThan(SWEEP_MS + 2_000)
      expect(finished).toMatchObject({
        status: 'interrupted',
        response: PARTIAL,
        errorMessage: LOST_NODE_MESSAGE,
        reservedChars: 0,
      })
      expect(finished?.completedAt).toBeInstanceOf(Date)
      expect(await userUsage(userId)).toEqual({
        input: CONTENT.length,
        output: PARTIAL.length,
        reserved: 0,
      })
      expect((await rowOf(later.row.id))?.status).toBe('streaming')
      await waitFor(
        async () => (await rowOf(later.row.id))?.status === 'interrupted',
        1_000 + SWEEP_MS + 3_000,
      )
      expect(Date.now() - started).toBeLessThan(1_000 + SWEEP_MS + 3_000)
    } finally {
      await sweeper.stop()
    }
  })

  it('a retry of the swept send generates again at once into the same row', async () => {
    const { cookie, userId, row } = await orphanedReply(LEASE_MS + 5_000, 'dead-2')
    const sweeper = startLeaseSweeper(db(), app.t.deps.log)
    await waitFor(async () => (await rowOf(row.id))?.status === 'interrupted', SWEEP_MS + 2_000)
    await sweeper.stop()
    const started = Date.now()
    const events = await readEvents(await send(cookie, { content: CONTENT, clientMessageId: 'dead-2' }))
    expect(events.at(-1)).toMatchObject({ id: row.id, done: true, status: 'complete' })
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(app.ai.requests).toHaveLength(1)
    const after = await rowOf(row.id)
    expect(after).toMatchObject({ status: 'complete', errorMessage: null, reservedChars: 0 })
    expect(after?.response).toContain(CONTENT)
    expect((await userUsage(userId))?.reserved).toBe(0)
  })

  it('a retry that arrives before any sweep takes over the lapsed reply and generates at once', async () => {
    const { cookie, row } = await orphanedReply(LEASE_MS + 1_000, 'dead-3')
    const started = Date.now()
    const events = await readEvents(await send(cookie, { content: CONTENT, clientMessageId: 'dead-3' }))
    expect(events.at(-1)).toMatchObject({ id: row.id, done: true, status: 'complete' })
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(app.ai.requests).toHaveLength(1)
  })

  it('a retry following a reply on a live node ends with the saved text once that lease lapses', async () => {
    const { cookie, row } = await orphanedReply(LEASE_MS - 1_500, 'dying-1')
    const started = Date.now()
    const events = await readEvents(await send(cookie, { content: CONTENT, clientMessageId: 'dying-1' }))
    // Followed (nothing generated here) until the lease lapsed, then ended with what was saved.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000)
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(app.ai.requests).toHaveLength(0)
    expect(events.map((e) => e.text ?? '').join('')).toBe(PARTIAL)
    expect(events.at(-1)).toMatchObject({
      id: row.id,
      status: 'interrupted',
      error: LOST_NODE_MESSAGE,
      code: chatErrorCodes.interrupted,
    })
  })

  it('a reply that lost its node with no text is stored as failed and charged nothing', async () => {
    const { userId, row } = await orphanedReply(LEASE_MS + 5_000, 'dead-4')
    await db().update(messages).set({ response: '' }).where(eq(messages.id, row.id))
    const sweeper = startLeaseSweeper(db(), app.t.deps.log)
    try {
      await waitFor(async () => (await rowOf(row.id))?.status === 'failed', SWEEP_MS + 2_000)
      expect(await userUsage(userId)).toEqual({ input: 0, output: 0, reserved: 0 })
    } finally {
      await sweeper.stop()
    }
  })

  it('leaves rows ended before leases existed alone (nothing charged twice)', async () => {
    const { userId, row } = await orphanedReply(LEASE_MS + 5_000, 'old-1')
    // As the old 6-minute sweep left them: interrupted, no completed_at, nothing reserved.
    await db()
      .update(messages)
      .set({ status: 'interrupted', reservedChars: 0 })
      .where(eq(messages.id, row.id))
    await db().update(users).set({ aiReservedChars: 0 }).where(eq(users.id, userId))
    expect(await finishLapsed(db())).toEqual([])
    expect(await userUsage(userId)).toEqual({ input: 0, output: 0, reserved: 0 })
    expect((await rowOf(row.id))?.completedAt).toBeNull()
  })

  it('frees a reservation whose reply was deleted while its node was down', async () => {
    const { userId, row } = await orphanedReply(0, 'dead-5')
    await db().delete(messages).where(eq(messages.id, row.id))
    expect((await userUsage(userId))?.reserved).toBe(CONTENT.length)
    const sweeper = startLeaseSweeper(db(), app.t.deps.log)
    try {
      await waitFor(async () => (await userUsage(userId))?.reserved === 0, SWEEP_MS + 2_000)
    } finally {
      await sweeper.stop()
    }
  })

  it('renews the lease while a reply is being written, so a slow reply is never swept', async () => {
    const { cookie } = await app.t.signUp()
    app.ai.setScenario('slow')
    const res = await send(cookie, { content: 'slow but alive' })
    const events = readEvents(res)
    const [streaming] = await waitFor(async () => {
      const rows = await db()
        .select()
        .from(messages)
        .where(sql`${messages.content} = 'slow but alive' and ${messages.response} <> ''`)
      return rows.length ? rows : undefined
    })
    const first = streaming?.heartbeatAt.getTime() ?? 0
    await waitFor(async () => ((await rowOf(streaming?.id ?? ''))?.heartbeatAt.getTime() ?? 0) > first)
    expect((await events).at(-1)).toMatchObject({ done: true, status: 'complete' })
  })
})
