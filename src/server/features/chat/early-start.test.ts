// A send's model call starts while the statement that stores the send runs (decision 033), its
// request sent but for its last byte. The statement decides: the call becomes the reply only when
// the send was stored on the history guessed, and is dropped unread by the provider otherwise.
// Also run on PostgreSQL: node scripts/test-pg.mjs <this file>.
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { and, eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Tx } from '#server/db/client.ts'
import { messages, users } from '#server/db/schema/index.ts'
import { setUpAiTestApp } from '../../../../tests/helpers/ai-test-app.ts'
import { eventReader, messageRow, readEvents, replyText, waitFor } from '../../../../tests/helpers/chat.ts'
import { fakeLanguageModel } from '../../../../tests/helpers/fake-model.ts'
import { MAX_GENERATING_PER_USER } from './admission.ts'
import { EarlyStarts, earlyStartStats } from './early-start.ts'
import type { ModelCall } from './generation.ts'
import type { HistoryExchange } from './history.ts'
import type { ResolvedModel } from './providers/registry.ts'
import { STARTING_AT_ONCE } from './start-gate.ts'

/** A model whose replies never end until stopped; `stopped` counts the calls that were. */
function silentModel() {
  const seen = { calls: 0, stopped: 0 }
  const model = fakeLanguageModel(async () => {
    seen.calls++
    return {
      stream: new ReadableStream<LanguageModelV3StreamPart>({
        cancel: () => {
          seen.stopped++
        },
      }),
    }
  })
  const call: ModelCall = {
    resolved: { model, modelId: 'fake-1' } as unknown as ResolvedModel,
    prompt: { system: 'Be brief.', messages: [{ role: 'user', content: 'Hello' }] },
  }
  return { call, seen }
}

describe('EarlyStarts', () => {
  it('gives one person one early call at a time', async () => {
    const starts = new EarlyStarts()
    const { call, seen } = silentModel()
    const first = starts.begin('ann', [], call)
    expect(first).not.toBeNull()
    expect(starts.begin('ann', [], call)).toBeNull()
    // Another person is not held back by Ann.
    const bob = starts.begin('bob', [], call)
    expect(bob).not.toBeNull()
    await waitFor(async () => seen.calls === 2)

    first?.cancel()
    await waitFor(async () => seen.stopped === 1)
    const again = starts.begin('ann', [], call)
    expect(again).not.toBeNull()
    again?.cancel()
    bob?.cancel()
    await waitFor(async () => seen.stopped === 3)
  })

  it('is stopped when the send read another history than the one guessed', async () => {
    const starts = new EarlyStarts()
    const { call, seen } = silentModel()
    const guess: HistoryExchange[] = [
      { content: 'Hi', response: 'Hello', status: 'complete', mediaType: null },
    ]
    const early = starts.begin('ann', guess, call)
    const read = [{ ...guess[0], response: 'Hello there' } as HistoryExchange]
    // The registry, the services and the rest of the send are not reached: the histories differ.
    expect(early?.take(undefined as never, undefined as never, { history: read } as never)).toBeNull()
    await waitFor(async () => seen.stopped === 1)
    expect(starts.begin('ann', guess, call)).not.toBeNull()
  })
})

const app = setUpAiTestApp()
const db = () => app.t.deps.database.db
const send = (cookie: string, json: Record<string, unknown>) =>
  app.t.request('/api/messages', { method: 'POST', cookie, json })
const SLOW = '[[scenario:slow]]'
/** The send's start when it checks a guessed session (send-statement.ts signedBy). */
const isCheckedStart = (q: string) => /signed as \(\s*select 1 from users su/i.test(q)

/** A person whose session this node has read (as the chat page's first request does). */
async function readBefore() {
  const { cookie, user } = await app.t.signUp()
  await app.t.request('/api/session', { cookie })
  return { cookie, userId: user.id as string }
}

/** A plain send to Gemini, in `threadId` or a new thread. */
const ask = (cookie: string, content: string, threadId?: string) =>
  send(cookie, { content, ...(threadId ? { threadId } : {}), isEcoMode: false, useOpenAI: false })

/** A new thread with one exchange, its reply stored by this node. */
async function threadWithOneReply(cookie: string) {
  const first = await readEvents(await ask(cookie, 'One'))
  return { first, threadId: first[0]?.threadId as string }
}

/**
 * Runs `during` while the person's row is locked, so a send's statement waits (it updates the
 * row). `during` must not use the database but through `tx`: on PGlite it waits for the
 * transaction too.
 */
function whileStatementWaits(userId: string, during: (tx: Tx) => Promise<void>) {
  return db().transaction(async (tx) => {
    await tx.execute(sql`select id from users where id = ${userId} for update`)
    await during(tx)
  })
}

/**
 * Makes a send while its statement waits, until the stand-in has seen `begun` requests begin;
 * then `during` runs, still inside the lock. Answers the send's response.
 */
async function sendWhileStored(
  userId: string,
  sending: () => Promise<Response>,
  begun: number,
  during?: (tx: Tx) => Promise<void>,
) {
  let pending: Promise<Response> | undefined
  await whileStatementWaits(userId, async (tx) => {
    pending = sending()
    await waitFor(async () => app.ai.begun() === begun)
    await during?.(tx)
  })
  return pending as Promise<Response>
}

/**
 * A thread with one reply of this node's, then a follow-up in it made while it is stored; `during`
 * is given the first exchange's id.
 */
async function followUpWhileStored(during: (tx: Tx, firstId: string) => Promise<void>) {
  const { cookie, userId } = await readBefore()
  const { first, threadId } = await threadWithOneReply(cookie)
  const firstId = first[0]?.id as string
  const res = await sendWhileStored(
    userId,
    () => ask(cookie, 'Two', threadId),
    2,
    (tx) => during(tx, firstId),
  )
  return { first, threadId, userId, events: await readEvents(res) }
}

/**
 * A follow-up is guessed only where this process is the database's only writer (the embedded
 * one): on a shared PostgreSQL its send waits for its statement, as before (decision 033).
 */
const shared = Boolean(process.env.TEST_DATABASE_URL)

/** The prompt a recorded Gemini request carried, as text. */
const promptOf = (i: number) => JSON.stringify(app.ai.requests[i]?.body)

describe("a send's early model call", () => {
  it('is made for a new thread while the send is stored, sent whole once it is, and becomes its reply', async () => {
    const { cookie, userId } = await readBefore()
    const res = await sendWhileStored(
      userId,
      () => ask(cookie, 'Hello early'),
      1,
      async () => {
        // Its last byte is held: the provider has not read it.
        expect(app.ai.requests).toHaveLength(0)
      },
    )
    expect(res.status).toBe(200)
    const events = await readEvents(res)
    expect(replyText(events)).toBe('Echo: Hello early\n(history: 1 messages, system: yes)')
    expect(events.at(-1)).toMatchObject({ done: true, status: 'complete' })
    expect(await messageRow(db(), events[0]?.id as string)).toMatchObject({
      content: 'Hello early',
      response: replyText(events),
      status: 'complete',
    })
    expect(app.ai.requests).toHaveLength(1)
    expect(app.ai.begun()).toBe(1)
    expect(app.ai.abandoned()).toBe(0)
  })

  it.skipIf(shared)(
    "is made for a follow-up on the history this node kept, and the model is sent the thread's history",
    async () => {
      const { first, events } = await followUpWhileStored(async () => {
        expect(app.ai.requests).toHaveLength(1)
      })
      expect(replyText(events)).toBe('Echo: Two\n(history: 3 messages, system: yes)')
      expect(promptOf(1)).toContain(replyText(first).replaceAll('\n', '\\n'))
      expect(app.ai.requests).toHaveLength(2)
      expect(app.ai.begun()).toBe(2)
    },
  )

  it.skipIf(shared)(
    'is dropped unread when the thread changed behind this node, and the reply is made on what the send read',
    async () => {
      const { threadId, userId, events } = await followUpWhileStored(async (tx, firstId) => {
        // Written by another node meanwhile, before the send's statement reads it.
        await tx.update(messages).set({ response: 'Changed elsewhere' }).where(eq(messages.id, firstId))
      })
      expect(events.at(-1)).toMatchObject({ done: true, status: 'complete' })
      // The early request was never read; the reply's request carried the history as stored.
      await waitFor(async () => app.ai.abandoned() === 1)
      expect(app.ai.begun()).toBe(3)
      expect(app.ai.requests).toHaveLength(2)
      expect(promptOf(1)).toContain('Changed elsewhere')
      const stored = await db()
        .select({ id: messages.id })
        .from(messages)
        .where(and(eq(messages.threadId, threadId), eq(messages.userId, userId)))
      expect(stored).toHaveLength(2)
    },
  )

  it('is dropped unread when the send is refused, and nothing is stored', async () => {
    const { cookie, userId } = await readBefore()
    await db().update(users).set({ aiGenerating: MAX_GENERATING_PER_USER }).where(eq(users.id, userId))
    const res = await sendWhileStored(userId, () => ask(cookie, 'One too many'), 1)
    expect(res.status).toBe(429)
    await waitFor(async () => app.ai.abandoned() === 1)
    expect(app.ai.requests).toHaveLength(0)
    const stored = await db().select({ id: messages.id }).from(messages).where(eq(messages.userId, userId))
    expect(stored).toHaveLength(0)
  })

  it('is one per person at a time, and the provider reads only the admitted sends of 20 at once', async () => {
    const { cookie, userId } = await readBefore()
    let all: Promise<Response[]> | undefined
    await whileStatementWaits(userId, async () => {
      app.t.queries.length = 0
      all = Promise.all(Array.from({ length: 20 }, (_, i) => ask(cookie, `Send ${i} ${SLOW}`)))
      // The sends let start at once (start-gate.ts) made their early calls, if they were given
      // one, before their statements.
      await waitFor(async () => app.t.queries.filter(isCheckedStart).length === STARTING_AT_ONCE)
      await waitFor(async () => app.ai.begun() >= 1)
      expect(app.ai.begun()).toBe(1)
    })
    const answers = await (all as Promise<Response[]>)
    const admitted = answers.filter((r) => r.status === 200)
    expect(admitted).toHaveLength(MAX_GENERATING_PER_USER)
    expect(answers.filter((r) => r.status === 429)).toHaveLength(20 - MAX_GENERATING_PER_USER)
    // Each admitted reply is answering (its request was read); then it is stopped.
    for (const res of admitted) {
      const events = eventReader(res)
      const { id } = await events.until((e) => Boolean(e.text))
      await app.t.request(`/api/messages/${id}/stop`, { method: 'POST', cookie })
      await events.until((e) => e.status === 'interrupted')
    }
    // A refused send's early request, if it had one, was dropped unread.
    expect(app.ai.requests).toHaveLength(MAX_GENERATING_PER_USER)
  })

  it.skipIf(shared).each([
    [
      'deleted the thread',
      (cookie: string, threadId: string) =>
        app.t.request(`/api/threads/${threadId}`, { method: 'DELETE', cookie }),
    ],
    [
      'cleared their history',
      (cookie: string) => app.t.request('/api/messages', { method: 'DELETE', cookie }),
    ],
  ])('is not made on a history kept here once its person %s', async (_, remove) => {
    const { cookie } = await readBefore()
    const { threadId } = await threadWithOneReply(cookie)
    expect((await remove(cookie, threadId)).status).toBe(200)
    const begun = earlyStartStats.begun
    const res = await ask(cookie, 'Two', threadId)
    expect(res.status).toBe(404)
    expect(earlyStartStats.begun).toBe(begun)
    expect(app.ai.begun()).toBe(1)
  })
})
