import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { co2HistoryResponse, co2ImpactSchema } from '#contract/impact.ts'
import { messagePageSchema } from '#contract/messages.ts'
import { threads, users } from '#server/db/schema/index.ts'
import { messageRow, readEvents } from '../../../../tests/helpers/chat.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { type AiStandIn, startAiStandIn } from '../../../../tests/stand-ins/ai-providers.ts'
import { messageImpact } from './message-impact.ts'

// CO2 per message through the real send path: the AI SDK talks to the loopback stand-in, which
// reports token usage, and the reply's finalize stores the impact with the user's totals.

let ai: AiStandIn
let gemini: TestApp
let selfHosted: TestApp
beforeAll(async () => {
  ai = await startAiStandIn()
  gemini = await createTestApp({ GEMINI_API_KEY: 'test', GEMINI_BASE_URL: ai.geminiBaseUrl })
  // Our own eco model on an OpenAI-compatible endpoint, in France.
  selfHosted = await createTestApp({
    ECO_BASE_URL: ai.openaiBaseUrl,
    ECO_MODEL: 'qwen2.5:0.5b',
    // The stand-in wants a bearer token on every OpenAI-style call; Ollama would need none.
    ECO_API_KEY: 'test',
    ECO_MODEL_PARAMS_B: '0.5',
    LORIS_ZONE: 'FRA',
  })
})
afterAll(async () => {
  await gemini.close()
  await selfHosted.close()
  await ai.close()
})
beforeEach(() => ai.reset())

async function signedIn(t: TestApp) {
  const { cookie, user } = await t.signUp()
  const [def] = await t.deps.database.db
    .select()
    .from(threads)
    .where(and(eq(threads.userId, user.id as string), eq(threads.isDefault, true)))
  return { cookie, userId: user.id as string, threadId: def!.id }
}

async function sendAndSettle(t: TestApp, cookie: string, body: Record<string, unknown>) {
  const res = await t.request('/api/messages', { method: 'POST', cookie, json: body })
  expect(res.status).toBe(200)
  const events = await readEvents(res)
  const row = await messageRow(t.deps.database.db, events[0]!.id!)
  return row!
}

const userRow = async (t: TestApp, id: string) =>
  (await t.deps.database.db.select().from(users).where(eq(users.id, id)))[0]!

describe('CO2 of a streamed reply', () => {
  it("stores actual, standard and saved with the inputs used, and adds the saved midpoint to the user's total", async () => {
    const { cookie, userId, threadId } = await signedIn(gemini)
    // A free account past its premium share answers with Gemini 2.5 Flash-Lite (lib/usage.ts).
    await gemini.deps.database.db.update(users).set({ aiInputChars: 20_000 }).where(eq(users.id, userId))
    const row = await sendAndSettle(gemini, cookie, {
      content: 'How do trees store carbon?',
      threadId,
    })
    expect(row.status).toBe('complete')
    expect(row.outputTokens).toBeGreaterThan(0)
    const stored = co2ImpactSchema.parse(row.co2Impact)
    expect(stored.inputs).toEqual({
      provider: 'google',
      model: 'gemini-2.5-flash-lite',
      outputTokens: row.outputTokens,
      latencySeconds: row.latencyMs! / 1000,
      zone: 'USA',
      methodVersion: 'ecologits-0.9.1',
    })
    // Exactly the method's numbers for those inputs.
    expect(stored).toEqual(
      messageImpact({
        provider: 'google',
        modelId: 'gemini-2.5-flash-lite',
        outputTokens: row.outputTokens,
        latencyMs: row.latencyMs,
        replyChars: row.response.length,
        zone: null,
        selfParamsB: null,
      }),
    )
    expect(stored.saved.mid).toBeGreaterThan(0)
    expect(stored.saved.mid).toBeCloseTo(stored.standard.mid - stored.actual.mid, 12)

    let user = await userRow(gemini, userId)
    expect(user.co2Saved).toBe(stored.saved.mid)
    expect(user.co2SavedMin).toBe(stored.saved.min)
    expect(user.co2SavedMax).toBe(stored.saved.max)

    // A second reply adds up, bound by bound; the metrics and the message list agree.
    const second = await sendAndSettle(gemini, cookie, {
      content: 'And grasslands?',
      threadId,
    })
    const stored2 = co2ImpactSchema.parse(second.co2Impact)
    user = await userRow(gemini, userId)
    expect(user.co2Saved).toBeCloseTo(stored.saved.mid + stored2.saved.mid, 12)
    expect(user.co2SavedMin).toBeCloseTo(stored.saved.min + stored2.saved.min, 12)
    expect(user.co2SavedMax).toBeCloseTo(stored.saved.max + stored2.saved.max, 12)
    expect(await (await gemini.request('/api/metrics/co2', { cookie })).json()).toBe(user.co2Saved)

    const list = messagePageSchema.parse(
      await (await gemini.request(`/api/messages?threadId=${threadId}`, { cookie })).json(),
    ).items
    const bounds = (g: { min: number; max: number }) => ({ min: g.min, max: g.max })
    expect(list[0]?.co2Impact).toEqual({
      saved: stored.saved.mid,
      actual: stored.actual.mid,
      standard: stored.standard.mid,
      // The reply footer's tooltip shows the bounds.
      range: {
        saved: bounds(stored.saved),
        actual: bounds(stored.actual),
        standard: bounds(stored.standard),
      },
      energyWh: stored.energyWh,
      waterL: stored.waterL,
    })
    // Energy and water of the reply, beside its CO2: the method's own for those inputs.
    expect(stored.energyWh!.mid).toBeGreaterThan(0)
    expect(stored.waterL!.min).toBeLessThanOrEqual(stored.waterL!.max)

    const history = co2HistoryResponse.parse(
      await (await gemini.request('/api/metrics/co2/history?days=7', { cookie })).json(),
    )
    expect(history.days.at(-1)).toMatchObject({ messages: 2 })
    expect(history.days.at(-1)!.saved).toBeCloseTo(user.co2Saved, 12)
    expect(history.days.at(-1)!.actual).toBeCloseTo(stored.actual.mid + stored2.actual.mid, 12)
    expect(history.days.at(-1)!.energyWh).toBeCloseTo(stored.energyWh!.mid + stored2.energyWh!.mid, 12)
    expect(history.totals.waterL.max).toBeCloseTo(stored.waterL!.max + stored2.waterL!.max, 12)
  })

  it('saves nothing, never a negative amount, when the model is larger than the standard one', async () => {
    const { cookie, userId, threadId } = await signedIn(gemini)
    // A free user under 20,000 characters gets Gemini 2.5 Pro, larger than gpt-4o.
    const row = await sendAndSettle(gemini, cookie, { content: 'Write a haiku', threadId })
    const stored = co2ImpactSchema.parse(row.co2Impact)
    expect(stored.inputs.model).toBe('gemini-2.5-pro')
    expect(stored.actual.mid).toBeGreaterThan(stored.standard.mid)
    expect(stored.saved).toEqual({ min: 0, max: 0, mid: 0 })
    expect((await userRow(gemini, userId)).co2Saved).toBe(0)
  })

  it('stores no impact and adds nothing when the model produced nothing', async () => {
    const { cookie, userId, threadId } = await signedIn(gemini)
    ai.setScenario('upstream-error')
    const row = await sendAndSettle(gemini, cookie, { content: 'Hello', threadId })
    expect(row.status).toBe('failed')
    expect(row.co2Impact).toBeNull()
    expect((await userRow(gemini, userId)).co2Saved).toBe(0)
  })

  it('estimates our own eco model at its real size under provider self, in the deployment zone', async () => {
    const { cookie, userId, threadId } = await signedIn(selfHosted)
    const row = await sendAndSettle(selfHosted, cookie, {
      content: 'Hi from France',
      threadId,
      isEcoMode: true,
    })
    expect(row.status).toBe('complete')
    const stored = co2ImpactSchema.parse(row.co2Impact)
    expect(stored.inputs).toMatchObject({
      provider: 'self',
      model: 'qwen2.5:0.5b',
      outputTokens: row.outputTokens,
      zone: 'FRA',
    })
    // The standard reference does not move with the deployment: gpt-4o in the world mix.
    const reference = co2ImpactSchema.parse(
      messageImpact({
        provider: 'openai',
        modelId: 'gpt-4o',
        outputTokens: row.outputTokens,
        latencyMs: null,
        replyChars: 0,
        zone: 'WOR',
        selfParamsB: null,
      }),
    )
    expect(stored.standard).toEqual(reference.actual)
    expect((await userRow(selfHosted, userId)).co2Saved).toBe(stored.saved.mid)
  })
})
