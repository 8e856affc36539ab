// The streaming hot loop counted in work, not time: SSE writes per burst of tokens,
// and statements per progress tick for many replies at once.
import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { parseChatEventLine } from '#contract/chat-events.ts'
import { namedStatements } from '#server/db/named-statement.ts'
import { messages, threads } from '#server/db/schema/index.ts'
import { createLogger } from '#server/lib/logger.ts'
import { setUpAiTestApp } from '../../../../tests/helpers/ai-test-app.ts'
import { readEvents, replyText, waitFor } from '../../../../tests/helpers/chat.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { Generation } from './generation.ts'
import { ProgressSaver, saveBatch } from './progress-saver.ts'
import { reshowThread, shownLeaf } from './shown-branch.ts'
import { followGeneration } from './stream.ts'
import { frameMs, MAX_FRAME_MS, MIN_FRAME_MS, TextFrames } from './text-frames.ts'

/** Reads an SSE body write by write: each chunk the stream hands over is one write. */
function writes(res: Response) {
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  const seen: string[] = []
  let done = false
  void (async () => {
    for (;;) {
      const chunk = await reader.read()
      if (chunk.done) break
      seen.push(decoder.decode(chunk.value))
    }
    done = true
  })()
  return {
    seen,
    done: () => done,
    text: () =>
      seen
        .map((w) => parseChatEventLine(w.trim()))
        .map((e) => e?.text ?? '')
        .join(''),
  }
}

describe('SSE frames', () => {
  afterEach(() => vi.useRealTimers())

  it('writes a burst of 1,000 tokens in two frames, not 1,000 writes, and ends after its text', async () => {
    // The frames' clock stands still: a loaded machine pausing this process mid-burst for more
    // than a frame would otherwise count as tokens arriving a frame apart (real timers still run).
    vi.useFakeTimers({ toFake: ['performance'] })
    const gen = new Generation()
    const out = writes(followGeneration(gen, { id: 'm-1' }, new AbortController().signal))
    // The stream starts on its first read (sse.ts): the tokens come once it follows.
    await waitFor(async () => out.seen.length === 1)
    const tokens = Array.from({ length: 1000 }, (_, i) => `t${i} `)
    for (const token of tokens) gen.push(token)
    await waitFor(async () => out.text() === tokens.join(''))
    // The head, the first token at once, then the rest gathered into one frame.
    expect(out.seen).toHaveLength(3)

    gen.push('last words')
    gen.finish({ outcome: { status: 'complete', response: gen.text, errorMessage: null }, code: null })
    await waitFor(async () => out.done())
    expect(out.text()).toBe(`${tokens.join('')}last words`)
    expect(parseChatEventLine(out.seen.at(-1)!.trim())).toMatchObject({ done: true, status: 'complete' })
    expect(out.seen.length).toBeLessThanOrEqual(5)
  })
})

describe('frames under load', () => {
  afterEach(() => vi.useRealTimers())

  /** `streams` followers each given `tokens` tokens 20 ms apart; the writes they made. */
  async function relay(streams: number, tokens: number) {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] })
    const written = Array.from({ length: streams }, () => [] as string[])
    const frames = written.map((w) => new TextFrames((text) => w.push(text)))
    const sizes = { during: frameMs() }
    for (let i = 0; i < tokens; i++) {
      for (const f of frames) f.add(`t${i} `)
      await vi.advanceTimersByTimeAsync(20)
    }
    for (const f of frames) f.flush()
    for (const f of frames) f.discard()
    const expected = Array.from({ length: tokens }, (_, i) => `t${i} `).join('')
    for (const w of written) expect(w.join('')).toBe(expected)
    return { ...sizes, after: frameMs(), writes: written.reduce((n, w) => n + w.length, 0) }
  }

  it('writes each token at once with few streams open, several per write with many', async () => {
    const one = await relay(1, 50)
    expect(one).toEqual({ during: MIN_FRAME_MS, after: MIN_FRAME_MS, writes: 50 })
    // Tokens a little less than a frame apart are not held for a whole frame with few streams.
    const twenty = await relay(20, 50)
    expect(twenty.during).toBe(20)
    expect(twenty.writes).toBe(20 * 50)
    const many = await relay(60, 50)
    expect(many.during).toBe(MAX_FRAME_MS)
    expect(many.after).toBe(MIN_FRAME_MS)
    // 50 ms frames for tokens 20 ms apart: at most one write per 2 tokens, plus the last.
    expect(many.writes).toBeLessThanOrEqual(60 * 26)
  })
})

describe('progress saves', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(() => t.close())

  it('saves 40 replies in one statement per tick and stops the ones stopped elsewhere', async () => {
    const { user } = await t.signUp()
    const db = t.deps.database.db
    const [thread] = await db
      .insert(threads)
      .values({ userId: user.id as string, title: 'Many' })
      .returning()
    const rows = await db
      .insert(messages)
      .values(
        Array.from({ length: 40 }, (_, i) => ({
          userId: user.id as string,
          threadId: thread!.id,
          content: `Q${i}`,
          chatModel: 'gemini' as const,
          attemptId: randomUUID(),
        })),
      )
      .returning({ id: messages.id, attemptId: messages.attemptId })
    const texts = new Map(rows.map((r) => [r.id, '']))
    const stopped = new Set<string>()
    // A long interval: the test ticks by hand.
    const saver = new ProgressSaver(db, createLogger({ level: 'silent' }), 3_600_000)
    for (const { id, attemptId } of rows)
      saver.add({
        messageId: id,
        attemptId: attemptId!,
        text: () => texts.get(id) ?? '',
        stop: () => stopped.add(id),
      })

    for (const { id } of rows) texts.set(id, `partial ${id}`)
    t.queries.length = 0
    await saver.tick()
    expect(t.queries).toHaveLength(1)
    const saved = await db.select({ id: messages.id, response: messages.response }).from(messages)
    for (const { id } of rows) expect(saved.find((r) => r.id === id)?.response).toBe(`partial ${id}`)

    // Nothing new and no lease due: no statement at all.
    t.queries.length = 0
    await saver.tick()
    expect(t.queries).toHaveLength(0)

    // One reply stopped on another node: the next save tells it, in the same one statement.
    const [first] = rows
    await db.update(messages).set({ status: 'interrupted' }).where(eq(messages.id, first!.id))
    for (const { id } of rows) texts.set(id, `more ${id}`)
    t.queries.length = 0
    await saver.tick()
    expect(t.queries).toHaveLength(1)
    expect([...stopped]).toEqual([first!.id])
    for (const { attemptId } of rows) await saver.remove(attemptId!)
  })

  it('saves any text intact, and a lease renewal keeps the text saved before', async () => {
    const { user } = await t.signUp()
    const db = t.deps.database.db
    const tricky = [
      'quotes " and \' and \\ backslashes \\"',
      '{braces, commas}, NULL, null',
      'line\nbreaks\tand tabs',
      'émoji 🐒 and 中文',
      '',
    ]
    const rows = await db
      .insert(messages)
      .values(
        [...tricky, 'kept'].map((_, i) => ({
          userId: user.id as string,
          content: `Q${i}`,
          chatModel: 'gemini' as const,
          attemptId: randomUUID(),
        })),
      )
      .returning({ id: messages.id, attemptId: messages.attemptId })
    const saving = (i: number, response: string | null) => ({
      id: rows[i]!.id,
      attemptId: rows[i]!.attemptId!,
      response,
    })
    await saveBatch(db, [saving(5, 'kept as it was')])
    const touched = await saveBatch(db, [
      ...tricky.map((response, i) => saving(i, response)),
      saving(5, null),
    ])
    expect(touched.size).toBe(6)
    const saved = await db.select({ id: messages.id, response: messages.response }).from(messages)
    for (const [i, text] of tricky.entries())
      expect(saved.find((r) => r.id === rows[i]!.id)?.response).toBe(text)
    expect(saved.find((r) => r.id === rows[5]!.id)?.response).toBe('kept as it was')
  })

  it('does not index the text at a progress save, only once the reply is settled', async () => {
    const { user } = await t.signUp()
    const db = t.deps.database.db
    const [row] = await db
      .insert(messages)
      .values({
        userId: user.id as string,
        content: 'Question',
        chatModel: 'gemini' as const,
        attemptId: randomUUID(),
      })
      .returning({ id: messages.id, attemptId: messages.attemptId })
    const id = row!.id
    const vector = async () =>
      (
        (await db.execute(
          sql`select search_vector::text as v from messages where id = ${id}`,
        )) as unknown as {
          rows: { v: string | null }[]
        }
      ).rows[0]?.v
    await saveBatch(db, [{ id, attemptId: row!.attemptId!, response: 'an unusual zebrafish answer' }])
    expect(await vector()).toBeNull()
    await db.update(messages).set({ status: 'complete' }).where(eq(messages.id, id))
    expect(await vector()).toContain("'zebrafish'")
  })
})

/**
 * The statements a send made: a progress save (progress-saver.ts) is once a second for every
 * reply of the node at once, and comes into a send's count only when its reply lasts that long.
 */
const sendStatements = (queries: string[]) =>
  queries.filter((q) => !/^\s*update messages m\s+set response = coalesce/.test(q))

describe('statements per send', () => {
  const app = setUpAiTestApp()

  it('starts and finishes a send in one statement each, no transaction, whatever the reply or thread', async () => {
    const { cookie } = await app.t.signUp()
    app.ai.setChunkDelayMs(0)
    const count = async (words: number, threadId?: string) => {
      const content = Array.from({ length: words }, (_, i) => `word${i}`).join(' ')
      app.t.queries.length = 0
      const events = await readEvents(
        await app.t.request('/api/messages', { method: 'POST', cookie, json: { content, threadId } }),
      )
      expect(events.at(-1)).toMatchObject({ done: true, status: 'complete' })
      expect(replyText(events)).toContain(`word${words - 1}`)
      const statements = sendStatements(app.t.queries)
      // The node-postgres driver reports a transaction's begin and commit: there must be none.
      expect(statements.filter((q) => /^\s*(begin|commit|rollback)\b/i.test(q))).toEqual([])
      return { statements: statements.length, threadId: events[0]?.threadId as string }
    }
    // A new thread, a follow-up with its history, and long replies: the same three statements.
    const first = await count(14)
    const next = await count(14, first.threadId)
    // Prepared by name on PostgreSQL: another follow-up's start and end are the same statements.
    const named = namedStatements()
    const toQuery = vi.spyOn(PgDialect.prototype, 'sqlToQuery')
    await count(14, first.threadId)
    const written = toQuery.mock.results.map((r) => (r.value as { sql: string }).sql)
    toQuery.mockRestore()
    expect(namedStatements()).toBe(named)
    // Nor are their texts written again: each was built once for its shape (named-statement.ts).
    expect(written.filter((q) => /with recursive|with info as/.test(q))).toEqual([])
    const long = await count(179, first.threadId)
    // The session; what the prompt carries besides the thread (the person's instructions and the
    // send's project, one statement); the send's start (budget, admission, the exchange, its
    // history); its end (the reply, usage, CO2). Raise only with a reason: each statement is a
    // round trip on every send (decision 021).
    expect([first.statements, next.statements, long.statements]).toEqual([4, 4, 4])
    // The model was sent the history read in the start statement.
    const body = app.ai.requests.at(-1)?.body as { contents: { parts: { text: string }[] }[] }
    expect(body.contents.map((c) => c.parts[0]?.text?.slice(0, 12))).toEqual([
      'word0 word1 ',
      expect.stringContaining(''),
      'word0 word1 ',
      expect.stringContaining(''),
      'word0 word1 ',
      expect.stringContaining(''),
      'word0 word1 ',
    ])
  })

  it('costs the same statements after a thread of 1,500 exchanges as after one', async () => {
    const { cookie, user } = await app.t.signUp()
    app.ai.setChunkDelayMs(0)
    const db = app.t.deps.database.db
    const [thread] = await db
      .insert(threads)
      .values({ userId: user.id as string, title: 'Long' })
      .returning()
    const ids = Array.from({ length: 1500 }, () => crypto.randomUUID())
    for (let at = 0; at < ids.length; at += 500)
      await db.insert(messages).values(
        ids.slice(at, at + 500).map((id, j) => ({
          id,
          userId: user.id as string,
          threadId: thread!.id,
          parentId: at + j === 0 ? null : ids[at + j - 1],
          depth: at + j,
          content: `Q${at + j}`,
          response: `A${at + j}`,
          chatModel: 'gemini' as const,
          status: 'complete' as const,
        })),
      )
    await reshowThread(db, thread!.id)
    app.t.queries.length = 0
    const events = await readEvents(
      await app.t.request('/api/messages', {
        method: 'POST',
        cookie,
        json: { content: 'and?', threadId: thread!.id },
      }),
    )
    expect(events.at(-1)).toMatchObject({ done: true, status: 'complete' })
    expect(sendStatements(app.t.queries)).toHaveLength(4)
    // It follows the last exchange, and the model got the newest of the history.
    const [stored] = await db
      .select()
      .from(messages)
      .where(eq(messages.id, events[0]?.id as string))
    expect(stored).toMatchObject({ parentId: ids.at(-1), depth: 1500 })
    expect(await shownLeaf(db, thread!.id)).toBe(stored!.id)
    const body = app.ai.requests.at(-1)?.body as { contents: { parts: { text: string }[] }[] }
    expect(body.contents.at(-2)?.parts[0]?.text).toBe('A1499')
  })
})
