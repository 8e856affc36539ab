// The streaming hot loop counted in work, not time (issue 15): SSE writes per burst of tokens,
// and statements per progress tick for many replies at once.
import { eq, sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { parseChatEventLine } from '#contract/chat-events.ts'
import { messages, threads } from '#server/db/schema/index.ts'
import { createLogger } from '#server/lib/logger.ts'
import { readEvents, replyText, waitFor } from '../../../../tests/helpers/chat.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { type AiStandIn, startAiStandIn } from '../../../../tests/stand-ins/ai-providers.ts'
import { Generation, type GenerationJob } from './generation.ts'
import { ProgressSaver, saveBatch } from './progress-saver.ts'
import { followGeneration } from './stream.ts'
import { FRAME_MS, frameMs, MAX_FRAME_MS, TextFrames } from './text-frames.ts'

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

const job = { messageId: 'm-1', userId: 'u-1', threadId: null } as unknown as GenerationJob

describe('SSE frames', () => {
  it('writes a burst of 1,000 tokens in two frames, not 1,000 writes, and ends after its text', async () => {
    const gen = new Generation(job)
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
    expect(one).toEqual({ during: FRAME_MS, after: FRAME_MS, writes: 50 })
    const many = await relay(60, 50)
    expect(many.during).toBe(MAX_FRAME_MS)
    expect(many.after).toBe(FRAME_MS)
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
        })),
      )
      .returning({ id: messages.id })
    const texts = new Map(rows.map((r) => [r.id, '']))
    const stopped = new Set<string>()
    // A long interval: the test ticks by hand.
    const saver = new ProgressSaver(db, createLogger({ level: 'silent' }), 3_600_000)
    for (const { id } of rows)
      saver.add({ messageId: id, text: () => texts.get(id) ?? '', stop: () => stopped.add(id) })

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
    for (const { id } of rows) await saver.remove(id)
  })

  it('does not index the text at a progress save, only once the reply is settled', async () => {
    const { user } = await t.signUp()
    const db = t.deps.database.db
    const [row] = await db
      .insert(messages)
      .values({ userId: user.id as string, content: 'Question', chatModel: 'gemini' as const })
      .returning({ id: messages.id })
    const id = row!.id
    const vector = async () =>
      (
        (await db.execute(
          sql`select search_vector::text as v from messages where id = ${id}`,
        )) as unknown as {
          rows: { v: string | null }[]
        }
      ).rows[0]?.v
    await saveBatch(db, [{ id, response: 'an unusual zebrafish answer' }])
    expect(await vector()).toBeNull()
    await db.update(messages).set({ status: 'complete' }).where(eq(messages.id, id))
    expect(await vector()).toContain("'zebrafish'")
  })
})

describe('statements per send', () => {
  let t: TestApp
  let ai: AiStandIn
  beforeAll(async () => {
    ai = await startAiStandIn()
    t = await createTestApp({ GEMINI_API_KEY: 'test', GEMINI_BASE_URL: ai.geminiBaseUrl })
  })
  afterAll(async () => {
    await t.close()
    await ai.close()
  })

  it('does the same few statements for a reply of 5 chunks or 60, none per token', async () => {
    const { cookie } = await t.signUp()
    ai.setChunkDelayMs(0)
    const count = async (words: number) => {
      const content = Array.from({ length: words }, (_, i) => `word${i}`).join(' ')
      t.queries.length = 0
      const events = await readEvents(
        await t.request('/api/messages', { method: 'POST', cookie, json: { content } }),
      )
      expect(events.at(-1)).toMatchObject({ done: true, status: 'complete' })
      expect(replyText(events)).toContain(`word${words - 1}`)
      // The statements themselves: the node-postgres driver also reports its begin and commit.
      return t.queries.filter((q) => !/^\s*(begin|commit|rollback)\b/i.test(q)).length
    }
    const short = await count(14)
    const long = await count(179)
    expect(long).toBe(short)
    // Session, user, admission and store, history, finalize with usage and impact (raise only
    // with a reason; issue 15 measured about 10 before).
    expect(short).toBeLessThanOrEqual(13)
  })
})
