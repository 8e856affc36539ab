import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { configSchema } from '#contract/config.ts'
import { messagePageSchema } from '#contract/messages.ts'
import { messages, threads, users } from '#server/db/schema/index.ts'
import { setUpAiTestApp } from '../../../../tests/helpers/ai-test-app.ts'
import { messageRow, readEvents, replyText } from '../../../../tests/helpers/chat.ts'
import { ownerWithDefault } from '../../../../tests/helpers/thread-kit.ts'
import { reshowThread } from './shown-branch.ts'

// Gemini and an eco endpoint: ChatGPT stays unconfigured in this app.
const app = setUpAiTestApp((ai) => ({
  ECO_BASE_URL: ai.openaiBaseUrl,
  ECO_MODEL: 'loris-eco',
  ECO_API_KEY: 'test',
}))

const db = () => app.t.deps.database.db
const send = (cookie: string, json: Record<string, unknown>) =>
  app.t.request('/api/messages', { method: 'POST', cookie, json })

const signedIn = () => ownerWithDefault(app.t)

const userRow = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!
const setUsage = (id: string, set: Partial<typeof users.$inferInsert>) =>
  db().update(users).set(set).where(eq(users.id, id))

describe('POST /api/messages', () => {
  it('streams data lines, stores the reply with its model, tokens and latency, and charges usage', async () => {
    const { cookie, userId, defaultId } = await signedIn()
    const res = await send(cookie, {
      content: 'Hello Loris',
      threadId: defaultId,
      isEcoMode: false,
      useOpenAI: false,
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const raw = await res.clone().text()
    expect(
      raw
        .split('\n\n')
        .filter(Boolean)
        .every((frame) => frame.startsWith('data: ')),
    ).toBe(true)

    const events = await readEvents(res)
    const id = events[0]?.id
    expect(events[0]).toEqual({ id, threadId: defaultId, status: 'streaming', text: '' })
    expect(events.at(-1)).toEqual({
      id,
      threadId: defaultId,
      done: true,
      status: 'complete',
      userMessageCount: 1,
    })
    expect(events.every((e) => e.id === id && e.error === undefined && e.actualThreadId === undefined)).toBe(
      true,
    )
    const text = replyText(events)
    expect(text).toBe('Echo: Hello Loris\n(history: 1 messages, system: yes)')
    expect(events.filter((e) => e.text).length).toBeGreaterThan(1)

    const row = await messageRow(db(), id!)
    expect(row).toMatchObject({
      content: 'Hello Loris',
      response: text,
      status: 'complete',
      threadId: defaultId,
    })
    expect(row).toMatchObject({
      chatModel: 'gemini',
      provider: 'google',
      modelId: 'gemini-2.5-pro',
      errorMessage: null,
    })
    expect(row?.inputTokens).toBeGreaterThan(0)
    expect(row?.outputTokens).toBeGreaterThan(0)
    expect(row?.latencyMs).toBeGreaterThanOrEqual(0)
    expect(row?.completedAt).toBeInstanceOf(Date)

    const user = await userRow(userId)
    expect([user.aiInputChars, user.aiOutputChars]).toEqual(['Hello Loris'.length, text.length])
    const [thread] = await db().select().from(threads).where(eq(threads.id, defaultId))
    expect(thread!.lastMessageAt.getTime()).toBeGreaterThanOrEqual(row!.createdAt.getTime())

    const listed = messagePageSchema.parse(
      await (await app.t.request('/api/messages', { cookie })).json(),
    ).items
    // The CO2 midpoints of the reply (grams; asserted in detail in impact/message-co2.test.ts).
    // With the estimate's bounds for the reply footer's tooltip.
    const bounds = { min: expect.any(Number), max: expect.any(Number) }
    const co2 = {
      saved: expect.any(Number),
      actual: expect.any(Number),
      standard: expect.any(Number),
      range: { saved: bounds, actual: bounds, standard: bounds },
      energyWh: { min: expect.any(Number), max: expect.any(Number), mid: expect.any(Number) },
      waterL: { min: expect.any(Number), max: expect.any(Number), mid: expect.any(Number) },
    }
    expect(listed.map((m) => [m.id, m.status, m.response, m.co2Impact])).toEqual([
      [id, 'complete', text, co2],
    ])
  })

  it('creates a thread titled from the first message when no thread is named', async () => {
    const { cookie, userId } = await signedIn()
    const events = await readEvents(await send(cookie, { content: '  Plan a   green trip\nto Lisbon ' }))
    const last = events.at(-1)!
    expect(last.done).toBe(true)
    expect(last.actualThreadId).toBeTruthy()
    expect(last.threadId).toBe(last.actualThreadId)
    const [thread] = await db().select().from(threads).where(eq(threads.id, last.actualThreadId!))
    expect(thread).toMatchObject({
      userId,
      title: 'Plan a green trip to Lisbon',
      chatModel: 'gemini',
      isDefault: false,
    })
  })

  it('sends the thread history with the system prompt, and records the mode on the thread', async () => {
    const { cookie, defaultId } = await signedIn()
    await readEvents(await send(cookie, { content: 'first', threadId: defaultId }))
    const events = await readEvents(
      await send(cookie, { content: 'second', threadId: defaultId, isEcoMode: true }),
    )
    expect(replyText(events)).toBe('Echo: second\n(history: 3 messages, system: yes)')
    // The eco mode here is an OpenAI-compatible endpoint: the same history in its format.
    const body = app.ai.requests.at(-1)?.body as { messages: { role: string; content: string }[] }
    expect(body.messages.map((m) => [m.role, m.content.slice(0, 12)])).toEqual([
      ['system', body.messages[0]?.content.slice(0, 12)],
      ['user', 'first'],
      ['assistant', 'Echo: first\n'],
      ['user', 'second'],
    ])
    const [thread] = await db().select().from(threads).where(eq(threads.id, defaultId))
    expect(thread?.chatModel).toBe('loris')
  })

  it('bounds the history by its token budget, keeping the newest exchanges', async () => {
    const { cookie, userId } = await signedIn()
    const [thread] = await db().insert(threads).values({ userId, title: 'Long' }).returning()
    const base = Date.now() - 3_600_000
    await db()
      .insert(messages)
      .values(
        Array.from({ length: 40 }, (_, i) => ({
          userId,
          threadId: thread!.id,
          content: `question ${i} ${'q'.repeat(2_000)}`,
          response: `answer ${i} ${'a'.repeat(2_000)}`,
          chatModel: 'gemini' as const,
          status: 'complete' as const,
          createdAt: new Date(base + i * 1000),
        })),
      )
    // Rows written around the app: their shown branch is marked as a version switch would.
    await reshowThread(db(), thread!.id)
    await readEvents(await send(cookie, { content: 'and now?', threadId: thread!.id }))
    const body = app.ai.requests.at(-1)?.body as { contents: { parts: { text: string }[] }[] }
    const texts = body.contents.map((c) => c.parts[0]?.text ?? '')
    expect(texts.length).toBeGreaterThan(2)
    expect(texts.length).toBeLessThan(81)
    expect(texts.at(-1)).toBe('and now?')
    expect(texts.at(-2)).toMatch(/^answer 39 /)
    expect(texts[0]).not.toMatch(/^question 0 /)
    expect(texts.join('').length / 4).toBeLessThanOrEqual(8_000 + 100)
  })

  it('stores the prompt before calling the model: an upstream error leaves it stored as failed', async () => {
    const { cookie, userId, defaultId } = await signedIn()
    app.ai.setScenario('upstream-error')
    const events = await readEvents(await send(cookie, { content: 'Are you there?', threadId: defaultId }))
    const last = events.at(-1)!
    expect(last).toMatchObject({ status: 'failed', code: 'bad_gateway:provider', threadId: defaultId })
    expect(last.error).toBe('Gemini could not answer right now. Please try again.')
    expect(last.done).toBeUndefined()
    const row = await messageRow(db(), last.id!)
    expect(row).toMatchObject({ content: 'Are you there?', response: '', status: 'failed' })
    expect(row?.errorMessage).toBe(last.error)
    const user = await userRow(userId)
    expect(user.aiInputChars + user.aiOutputChars).toBe(0)
  })

  it('answers an unconfigured mode with one error event naming the variable, storing nothing', async () => {
    const { cookie, userId, defaultId } = await signedIn()
    const res = await send(cookie, { content: 'hi', threadId: defaultId, useOpenAI: true })
    expect(res.status).toBe(200)
    const events = await readEvents(res)
    expect(events).toEqual([
      {
        error: 'ChatGPT is not available on this server',
        code: 'service_unavailable:provider',
        status: 'failed',
      },
    ])
    expect(await db().select().from(messages).where(eq(messages.userId, userId))).toEqual([])
    expect(app.ai.requests).toEqual([])
    const config = configSchema.parse(await (await app.t.request('/api/config')).json())
    expect(config.modes.chatgpt).toEqual({ available: false, reason: events[0]?.error })
    expect(config.modes.gemini.available && config.modes.loris.available).toBe(true)
    // No search provider here: the composer's toggle says why it cannot search.
    expect(config.webSearch).toEqual({
      available: false,
      reason: 'Web search is not configured on this server',
    })
  })

  it("answers 404 for another user's thread, storing nothing", async () => {
    const owner = await signedIn()
    const { cookie, userId } = await signedIn()
    const res = await send(cookie, { content: 'hi', threadId: owner.defaultId })
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ code: 'not_found:thread' })
    expect(await db().select().from(messages).where(eq(messages.userId, userId))).toEqual([])
  })

  it.each([
    [{ content: '   ' }, 'Please write a message or attach a file'],
    [{ content: 'x'.repeat(100_001) }, 'A message is at most 100000 characters'],
    [{ content: 'hi', threadId: 'nope' }, 'Unknown thread'],
  ])('refuses %#: %s', async (json, message) => {
    const { cookie } = await signedIn()
    const res = await send(cookie, json)
    expect(res.status).toBe(400)
    expect((await res.json()).message).toBe(message)
  })

  it('reads the same fields from a multipart form; a file that is no supported type is 415', async () => {
    const { cookie, defaultId } = await signedIn()
    const form = new FormData()
    for (const [k, v] of Object.entries({
      content: 'from a form',
      threadId: defaultId,
      isEcoMode: 'true',
      useOpenAI: 'false',
    }))
      form.set(k, v)
    const events = await readEvents(
      await app.t.request('/api/messages', { method: 'POST', cookie, body: form }),
    )
    expect(events.at(-1)).toMatchObject({ done: true, threadId: defaultId })
    expect((await messageRow(db(), events[0]!.id!))?.chatModel).toBe('loris')
    form.set('image', new File([new Uint8Array([137, 80, 78, 71])], 'a.png', { type: 'image/png' }))
    const res = await app.t.request('/api/messages', { method: 'POST', cookie, body: form })
    expect(res.status).toBe(415)
  })

  it('requires a session', async () => {
    const res = await app.t.request('/api/messages', { method: 'POST', json: { content: 'hi' } })
    expect(res.status).toBe(401)
  })
})

describe('usage tiers and limits', () => {
  it.each([
    [false, 0, 'gemini-2.5-pro'],
    [false, 20_000, 'gemini-2.5-flash-lite'],
    [true, 499_999, 'gemini-2.5-pro'],
    [true, 500_000, 'gemini-2.0-flash'],
  ])('premium=%s with usage %i gets %s', async (isPremium, used, model) => {
    const { cookie, userId, defaultId } = await signedIn()
    await setUsage(userId, { isPremium, aiInputChars: used, aiOutputChars: 0 })
    const events = await readEvents(await send(cookie, { content: 'which model?', threadId: defaultId }))
    expect(events.at(-1)?.done).toBe(true)
    expect(app.ai.requests.map((r) => r.model)).toEqual([model])
    expect((await messageRow(db(), events[0]!.id!))?.modelId).toBe(model)
  })

  it.each([
    [false, 60_000, 40_000, 'Free usage limit exceeded; resets on'],
    [true, 999_000, 1_000, 'Premium usage limit exceeded; resets on'],
  ])(
    'refuses premium=%s at the limit with 429 and stores nothing',
    async (isPremium, input, output, text) => {
      const { cookie, userId } = await signedIn()
      const lastReset = new Date('2030-01-10T09:00:00Z')
      await setUsage(userId, {
        isPremium,
        aiInputChars: input,
        aiOutputChars: output,
        lastAiUsageReset: lastReset,
      })
      const res = await send(cookie, { content: 'one more' })
      expect(res.status).toBe(429)
      const body = await res.json()
      expect(body).toMatchObject({ code: 'rate_limited:usage', message: `${text} 2030-02-09` })
      expect(body.error).toBe(body.message)
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(await db().select().from(messages).where(eq(messages.userId, userId))).toEqual([])
      expect(await db().select().from(threads).where(eq(threads.userId, userId))).toHaveLength(1)
      expect(app.ai.requests).toEqual([])
    },
  )

  it('treats a premium account whose end date passed as free', async () => {
    const { cookie, userId } = await signedIn()
    await setUsage(userId, {
      isPremium: true,
      subscriptionEndDate: new Date('2020-01-01'),
      aiInputChars: 100_000,
    })
    expect((await send(cookie, { content: 'hi' })).status).toBe(429)
  })

  it('resets usage lazily 30 days after the last reset', async () => {
    const { cookie, userId } = await signedIn()
    const longAgo = new Date(Date.now() - 31 * 86_400_000)
    await setUsage(userId, { aiInputChars: 70_000, aiOutputChars: 30_000, lastAiUsageReset: longAgo })
    const events = await readEvents(await send(cookie, { content: 'fresh month' }))
    expect(events.at(-1)?.done).toBe(true)
    // The tier was chosen from the reset usage: the pro model again.
    expect(app.ai.requests.map((r) => r.model)).toEqual(['gemini-2.5-pro'])
    const user = await userRow(userId)
    expect(user.aiInputChars).toBe('fresh month'.length)
    expect(user.aiOutputChars).toBe(replyText(events).length)
    expect(user.lastAiUsageReset.getTime()).toBeGreaterThan(longAgo.getTime() + 30 * 86_400_000)
  })
})
