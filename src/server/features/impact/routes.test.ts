import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { impactCatalogResponse, impactEstimateResponse } from '#contract/impact.ts'
import { userSchema } from '#contract/user.ts'
import { messages, users } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const db = () => t.deps.database.db
const estimate = (query: string, headers: Record<string, string> = {}) =>
  t.request(`/api/impact/estimate?${query}`, { headers })

describe('GET /api/impact/estimate', () => {
  it('answers the worked example of the methodology page, with the standard reference beside it', async () => {
    const res = await estimate('model=gemini-2.5-flash-lite&outputTokens=500&zone=wor')
    expect(res.status).toBe(200)
    const body = impactEstimateResponse.parse(await res.json())
    expect(body.actual.energyWh.min).toBeCloseTo(0.04049, 5)
    expect(body.actual.energyWh.max).toBeCloseTo(0.05151, 5)
    expect(body.actual.gco2eq.min).toBeCloseTo(0.0224, 4)
    expect(body.actual.gco2eq.max).toBeCloseTo(0.0286, 4)
    expect(body.actual.inputs).toMatchObject({ provider: 'google', zone: 'WOR', latencySeconds: null })
    expect(body.standard.inputs).toMatchObject({ provider: 'openai', model: 'gpt-4o', zone: 'WOR' })
    expect(body.saved.min).toBeCloseTo(body.standard.gco2eq.min - body.actual.gco2eq.min, 12)
  })

  it("uses the provider's data-centre zone when none is given, and caps time with latencySeconds", async () => {
    const free = impactEstimateResponse.parse(await (await estimate('model=gpt-4o&outputTokens=300')).json())
    expect(free.actual.inputs.zone).toBe('USA')
    const capped = impactEstimateResponse.parse(
      await (await estimate('model=gpt-4o&outputTokens=300&latencySeconds=1')).json(),
    )
    expect(capped.actual.steps.generationSeconds.max).toBe(1)
    expect(capped.actual.gco2eq.max).toBeLessThan(free.actual.gco2eq.max)
  })

  it.each([
    [
      'an unknown model',
      'model=gpt-9&outputTokens=10',
      /Unknown model "gpt-9"\. Closest known models: gpt-4, gpt-5, .*GET \/api\/impact\/models lists all 361/,
    ],
    ['no model', 'outputTokens=10', /model is required, at most 120 characters: .*gpt-4o/],
    [
      'negative tokens',
      'model=gpt-4o&outputTokens=-5',
      /outputTokens must be a whole number from 0 to 1,000,000, got "-5"/,
    ],
    ['fractional tokens', 'model=gpt-4o&outputTokens=2.5', /outputTokens must be a whole number/],
    [
      'a zone typo (4 letters)',
      'model=gpt-4o&outputTokens=10&zone=FRAA',
      /Unknown electricity zone "FRAA"\. Use WOR .*FRA/,
    ],
    [
      'an unknown zone code',
      'model=gpt-4o&outputTokens=10&zone=XYZ',
      /Unknown electricity zone "XYZ"\. Use WOR .*SWE/,
    ],
    [
      'a zero latency',
      'model=gpt-4o&outputTokens=10&latencySeconds=0',
      /latencySeconds must be a number of seconds > 0/,
    ],
  ])('refuses %s with 400 and a message naming the valid choices', async (_, query, message) => {
    const res = await estimate(query)
    expect(res.status).toBe(400)
    const body = (await res.json()) as { code: string; message: string; error: string }
    expect(body.code).toMatch(/^bad_request:/)
    expect(body.message).toMatch(message)
    expect(body.error).toBe(body.message)
  })

  it('is rate-limited per address', async () => {
    const ip = { 'x-forwarded-for': '203.0.113.9' }
    const answers = await Promise.all(
      Array.from({ length: 245 }, () => estimate('model=gpt-4o-mini&outputTokens=1', ip)),
    )
    const statuses = answers.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(240)
    expect(statuses.filter((s) => s === 429)).toHaveLength(5)
    expect(answers.find((r) => r.status === 429)?.headers.get('retry-after')).toMatch(/^\d+$/)
    // Another address is not affected.
    expect(
      (await estimate('model=gpt-4o-mini&outputTokens=1', { 'x-forwarded-for': '203.0.113.10' })).status,
    ).toBe(200)
  })
})

describe('GET /api/impact/catalog', () => {
  it('lists the models, providers and zones the calculator may offer', async () => {
    const res = await t.request('/api/impact/catalog')
    expect(res.status).toBe(200)
    const body = impactCatalogResponse.parse(await res.json())
    expect(body.standard).toEqual({ provider: 'openai', model: 'gpt-4o', zone: 'WOR' })
    expect(body.models.map((m) => m.name)).toContain('gemini-2.5-flash-lite')
    expect(body.zones.find((z) => z.code === 'FRA')?.kgCo2eqPerKwh).toBe(0.04418)
  })
})

describe('POST /api/user/plant-tree', () => {
  async function userWithSentMessages(n: number, failed = 0) {
    const { cookie, user } = await t.signUp()
    const userId = user.id as string
    const rows = [
      ...Array.from({ length: n }, (_, i) => ({ status: 'complete' as const, content: `m${i}` })),
      ...Array.from({ length: failed }, (_, i) => ({ status: 'failed' as const, content: `f${i}` })),
    ]
    if (rows.length > 0) {
      await db()
        .insert(messages)
        .values(rows.map((r) => ({ ...r, userId, chatModel: 'gemini' as const })))
    }
    return { cookie, userId }
  }
  const plant = (cookie: string) => t.request('/api/user/plant-tree', { method: 'POST', cookie })

  it('plants one tree per two sent messages and answers the updated user', async () => {
    const { cookie } = await userWithSentMessages(5, 3)
    const res = await plant(cookie)
    expect(res.status).toBe(200)
    const body = userSchema.parse(await res.json())
    // Failed sends (nothing but the prompt stored) are not sent messages.
    expect(body.treesPlanted).toBe(2)
    expect(Object.keys(body).sort()).toEqual(Object.keys(userSchema.shape).sort())
  })

  it('never plants more than floor(n / 2), however many tabs call at once', async () => {
    const { cookie, userId } = await userWithSentMessages(7)
    const answers = await Promise.all(Array.from({ length: 8 }, () => plant(cookie)))
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200))
    const trees = await Promise.all(
      answers.map(async (r) => ((await r.json()) as { treesPlanted: number }).treesPlanted),
    )
    expect(trees).toEqual(Array(8).fill(3))
    const [row] = await db().select().from(users).where(eq(users.id, userId))
    expect(row?.treesPlanted).toBe(3)
    expect(userSchema.parse(await (await plant(cookie)).json()).treesPlanted).toBe(3)
  })

  it('keeps trees already planted after the history is cleared', async () => {
    const { cookie, userId } = await userWithSentMessages(4)
    expect(userSchema.parse(await (await plant(cookie)).json()).treesPlanted).toBe(2)
    await db().delete(messages).where(eq(messages.userId, userId))
    expect(userSchema.parse(await (await plant(cookie)).json()).treesPlanted).toBe(2)
  })

  it('needs a signed-in user', async () => {
    const res = await t.request('/api/user/plant-tree', { method: 'POST' })
    expect(res.status).toBe(401)
  })
})
