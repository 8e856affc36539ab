// A crash leaves nothing hanging: a reply whose node stopped renewing its
// lease is finished by the sweep within seconds, keeping its text and settling usage, and a retry
// of that send generates again at once instead of following a stream nobody writes.
import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { chatErrorCodes } from '#contract/chat-events.ts'
import { messages, threads, users } from '#server/db/schema/index.ts'
import { createModelRegistry } from '#server/features/models/registry.ts'
import { AppError } from '#server/lib/app-error.ts'
import { setUpAiTestApp } from '../../../../tests/helpers/ai-test-app.ts'
import { readEvents, usageOf as usageOfUser, waitFor } from '../../../../tests/helpers/chat.ts'
import { finalizeReply } from './finalize.ts'
import { Generation, type GenerationJob, GenerationRegistry, type ModelResult } from './generation.ts'
import { finishLapsed, LEASE_MS, LOST_NODE_MESSAGE, SWEEP_MS, startLeaseSweeper } from './lease.ts'
import { ProgressSaver } from './progress-saver.ts'
import { restartAttempt } from './queries.ts'

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

const usageOf = (userId: string) => usageOfUser(db(), userId)

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
    // As rows from before leases are: interrupted, no completed_at, nothing reserved.
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

describe('a node that stalled past its lease while a retry restarted its reply', () => {
  it("is told to stop and stores nothing; the retry's reply and usage stand", async () => {
    const { cookie, userId, row } = await orphanedReply(LEASE_MS + 5_000, 'stalled-1')
    const attemptA = randomUUID()
    await db().update(messages).set({ nodeId: 'node-A', attemptId: attemptA }).where(eq(messages.id, row.id))
    await db().update(users).set({ aiGenerating: 1 }).where(eq(users.id, userId))
    const usage = () => usageOf(userId)
    // Node A is writing the reply and stalls: its saver holds text it has not saved yet.
    const STALE = 'STALE TEXT FROM NODE A'
    const stopped: string[] = []
    const nodeA = new ProgressSaver(db(), app.t.deps.log, 3_600_000)
    nodeA.add({ messageId: row.id, attemptId: attemptA, text: () => STALE, stop: () => stopped.push(row.id) })

    // The sweep settles it as lost; the person's retry restarts the same row here (node B).
    expect(await finishLapsed(db(), { messageId: row.id })).toMatchObject([{ status: 'interrupted' }])
    // Slow enough (12 chunks, about 2.4 s) that node A wakes while B is still writing.
    app.ai.setScenario('slow')
    app.ai.setChunkDelayMs(200)
    const retried = readEvents(await send(cookie, { content: CONTENT, clientMessageId: 'stalled-1' }))
    expect((await rowOf(row.id))?.status).toBe('streaming')
    const whileB = { input: CONTENT.length, output: PARTIAL.length, reserved: CONTENT.length, generating: 1 }
    expect(await usage()).toEqual(whileB)

    // Node A wakes: its save is refused, so it stops; its end is not stored and charges nothing.
    await nodeA.tick()
    expect(stopped).toEqual([row.id])
    await nodeA.remove(attemptA)
    const endA = await finalizeReply(db(), {
      messageId: row.id,
      attemptId: attemptA,
      userId,
      threadId: row.threadId,
      chatModel: 'gemini',
      provider: 'google',
      modelId: 'gemini-test',
      outcome: { status: 'complete', response: STALE, errorMessage: null },
      inputTokens: 1,
      outputTokens: 1,
      latencyMs: 1,
      inputChars: CONTENT.length,
      impact: { zone: null, selfParamsB: null },
      now: new Date(),
    })
    expect(endA.stored).toBe(false)
    expect(await rowOf(row.id)).toMatchObject({ status: 'streaming', completedAt: null })
    expect((await rowOf(row.id))?.response).not.toContain(STALE)
    expect(await usage()).toEqual(whileB)

    // Node B's reply is the one stored, and each attempt was charged once.
    const events = await retried
    expect(events.at(-1)).toMatchObject({ id: row.id, done: true, status: 'complete' })
    const stored = await rowOf(row.id)
    expect(stored).toMatchObject({ status: 'complete', reservedChars: 0 })
    expect(stored?.response).toBe(events.map((e) => e.text ?? '').join(''))
    expect(stored?.response).toContain(CONTENT)
    expect(await usage()).toEqual({
      input: 2 * CONTENT.length,
      output: PARTIAL.length + (stored?.response.length ?? 0),
      reserved: 0,
      generating: 0,
    })
  })

  it('on the node still writing the replaced attempt, the new one is the one saved and followed', async () => {
    const { userId, row } = await orphanedReply(LEASE_MS + 5_000, 'stalled-2')
    await db()
      .update(messages)
      .set({ nodeId: 'this-node', attemptId: randomUUID() })
      .where(eq(messages.id, row.id))
    const replaced = await rowOf(row.id)
    expect(await finishLapsed(db(), { messageId: row.id })).toHaveLength(1)
    const resolved = createModelRegistry(app.t.deps.env).resolve('gemini', 'flash-lite')
    const model = { chatModel: resolved.chatModel, provider: resolved.provider, modelId: resolved.modelId }
    const claim = {
      chars: CONTENT.length,
      plan: 'free' as const,
      limit: 1_000_000,
      refusal: () => new AppError('rate_limited:usage', 'over'),
    }
    const restart = await restartAttempt(db(), row, model, new Date(), claim)
    if (restart.kind !== 'restarted' || !replaced?.attemptId) throw new Error('not restarted')
    const restarted = restart.row
    expect(restarted.attemptId).not.toBe(replaced.attemptId)

    // Both attempts run on one node: the model calls end when the test says.
    const registry = new GenerationRegistry()
    const deps = { db: db(), log: app.t.deps.log, now: () => new Date() }
    const job = (attemptId: string): GenerationJob => ({
      messageId: row.id,
      attemptId,
      userId,
      threadId: row.threadId,
      inputChars: CONTENT.length,
      resolved,
      prompt: { system: '', messages: [] },
    })
    const attempt = (attemptId: string) => {
      const gen = new Generation()
      let end: (r: ModelResult) => void = () => {}
      const model = new Promise<ModelResult>((resolve) => {
        end = resolve
      })
      registry.run(deps, gen, job(attemptId), model)
      const finish = (kind: 'finished' | 'stopped') =>
        end({ ending: { kind }, usage: {}, measured: null, started: performance.now() })
      return { gen, finish }
    }
    const old = attempt(replaced.attemptId)
    const fresh = attempt(restarted.attemptId)
    old.gen.push('STALE')
    fresh.gen.push('FRESH')
    // The old attempt's next save is refused: it stops, and its end stores nothing.
    await waitFor(async () => old.gen.stopRequested, 5_000)
    old.finish('stopped')
    await waitFor(async () => old.gen.end, 5_000)
    expect(registry.get(row.id)).toBe(fresh.gen)
    // The new attempt is still saved (and its lease renewed) after the old one ended.
    await waitFor(async () => (await rowOf(row.id))?.response === 'FRESH', 5_000)
    fresh.gen.push(' AND DONE')
    fresh.finish('finished')
    await registry.idle()
    expect(await rowOf(row.id)).toMatchObject({
      status: 'complete',
      response: 'FRESH AND DONE',
      reservedChars: 0,
    })
  })
})

describe('a reply deleted while it is being written', () => {
  it.each([
    [
      'its thread deleted',
      (cookie: string, threadId: string) =>
        app.t.request(`/api/threads/${threadId}`, { method: 'DELETE', cookie }),
    ],
    ['the history cleared', (cookie: string) => app.t.request('/api/messages', { method: 'DELETE', cookie })],
  ])('is charged for its input and the text saved so far when %s', async (_how, remove) => {
    const { cookie, user } = await app.t.signUp()
    const userId = user.id as string
    const content = 'a long story, deleted before its end'
    app.ai.setScenario('slow')
    app.ai.setChunkDelayMs(200)
    // A new thread, so that deleting the thread is possible (the Default one stays).
    const events = readEvents(await send(cookie, { content, threadId: null }))
    const saved = await waitFor(async () => {
      const [row] = await db()
        .select()
        .from(messages)
        .where(sql`${messages.userId} = ${userId} and ${messages.response} <> ''`)
      return row
    })
    expect((await remove(cookie, saved.threadId ?? '')).status).toBe(200)
    await events
    const after = await usageOf(userId)
    expect(after).toMatchObject({ input: content.length, reserved: 0, generating: 0 })
    expect(after?.output).toBeGreaterThanOrEqual(saved.response.length)
    expect(after?.output).toBeGreaterThan(0)
  })
})
