import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Co2Impact, co2HistoryResponse, co2SavedRangeResponse } from '#contract/impact.ts'
import { messages, users } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { historyStart } from './queries.ts'

// A fixed clock: 2026-03-10 at 23:30 UTC, late enough that a local-time bug would shift days.
const NOW = new Date('2026-03-10T23:30:00Z')

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({}, { now: () => NOW })
})
afterAll(() => t.close())

const db = () => t.deps.database.db

const g = (mid: number) => ({ min: mid * 0.5, max: mid * 1.5, mid })

/** A stored impact; without energy and water it is a row stored before they were counted. */
function co2(saved: number, actual: number, use?: { energyWh: number; waterL: number }): Co2Impact {
  return {
    saved: g(saved),
    actual: g(actual),
    standard: g(saved + actual),
    ...(use ? { energyWh: g(use.energyWh), waterL: g(use.waterL) } : {}),
    inputs: {
      provider: 'google',
      model: 'gemini-2.5-flash-lite',
      outputTokens: 100,
      latencySeconds: 1,
      zone: 'USA',
      methodVersion: 'ecologits-0.9.1',
    },
  }
}

async function addMessage(userId: string, createdAt: string, impact: Co2Impact | null) {
  await db()
    .insert(messages)
    .values({
      userId,
      content: 'q',
      response: 'a',
      status: 'complete',
      chatModel: 'gemini',
      co2Impact: impact,
      createdAt: new Date(createdAt),
    })
}

describe('GET /api/metrics/co2', () => {
  it("answers the signed-in user's grams saved as a plain number", async () => {
    const { cookie, user } = await t.signUp()
    expect(await (await t.request('/api/metrics/co2', { cookie })).json()).toBe(0)
    await db()
      .update(users)
      .set({ co2Saved: 12.5, co2SavedMin: 5, co2SavedMax: 20 })
      .where(eq(users.id, user.id as string))
    const res = await t.request('/api/metrics/co2', { cookie })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('12.5')
    const range = co2SavedRangeResponse.parse(
      await (await t.request('/api/metrics/co2/range', { cookie })).json(),
    )
    expect(range).toEqual({ min: 5, max: 20, mid: 12.5 })
  })

  it('is for signed-in users only', async () => {
    for (const path of ['/api/metrics/co2', '/api/metrics/co2/range', '/api/metrics/co2/history']) {
      expect((await t.request(path)).status).toBe(401)
    }
  })
})

describe('GET /api/metrics/co2/history', () => {
  it('sums the midpoints per UTC day, oldest first, with zeros for quiet days', async () => {
    const { cookie, user } = await t.signUp()
    const other = await t.signUp()
    const id = user.id as string
    await addMessage(id, '2026-03-10T23:10:00Z', co2(1, 0.25, { energyWh: 0.5, waterL: 0.002 }))
    await addMessage(id, '2026-03-10T00:00:00Z', co2(2, 0.5, { energyWh: 1, waterL: 0.004 }))
    await addMessage(id, '2026-03-09T23:59:59Z', co2(4, 1, { energyWh: 2, waterL: 0.01 }))
    await addMessage(id, '2026-03-04T12:00:00Z', co2(8, 2))
    // Outside a 7-day window, without an estimate, or someone else's: not counted.
    await addMessage(id, '2026-03-03T23:59:59Z', co2(100, 100))
    await addMessage(id, '2026-03-10T10:00:00Z', null)
    await addMessage(other.user.id as string, '2026-03-10T10:00:00Z', co2(100, 100))

    const res = await t.request('/api/metrics/co2/history?days=7', { cookie })
    expect(res.status).toBe(200)
    const { days, totals } = co2HistoryResponse.parse(await res.json())
    expect(days.map((d) => d.date)).toEqual([
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
    ])
    // 03-04's row predates energy and water: it counts in CO2 and adds nothing to them.
    const none = { energyWh: 0, waterL: 0 }
    expect(days[0]).toEqual({ date: '2026-03-04', saved: 8, actual: 2, ...none, messages: 1 })
    expect(days[1]).toEqual({ date: '2026-03-05', saved: 0, actual: 0, ...none, messages: 0 })
    expect(days[5]).toEqual({
      date: '2026-03-09',
      saved: 4,
      actual: 1,
      energyWh: 2,
      waterL: 0.01,
      messages: 1,
    })
    expect(days[6]?.energyWh).toBeCloseTo(1.5, 12)
    expect(days[6]?.waterL).toBeCloseTo(0.006, 12)
    expect(days[6]).toMatchObject({ date: '2026-03-10', saved: 3, actual: 0.75, messages: 2 })
    // Window totals: bounds summed min to min, max to max.
    expect(totals.actual).toEqual({ min: 1.875, mid: 3.75, max: 5.625 })
    expect(totals.energyWh.min).toBeCloseTo(1.75, 12)
    expect(totals.energyWh.mid).toBeCloseTo(3.5, 12)
    expect(totals.energyWh.max).toBeCloseTo(5.25, 12)
    expect(totals.waterL.mid).toBeCloseTo(0.016, 12)
  })

  // Rows an import once stored unchecked: they count as messages and add no figures.
  it('sums only the numbers of stored impacts, whatever else a row holds', async () => {
    const { cookie, user } = await t.signUp()
    const id = user.id as string
    await addMessage(id, '2026-03-10T10:00:00Z', co2(1, 0.5))
    for (const junk of [
      { saved: { mid: 'abc' } },
      { saved: 5, actual: [1], energyWh: { mid: true } },
      'abc',
      [1, 2],
    ])
      await addMessage(id, '2026-03-10T11:00:00Z', junk as unknown as Co2Impact)
    const res = await t.request('/api/metrics/co2/history?days=1', { cookie })
    expect(res.status).toBe(200)
    expect(co2HistoryResponse.parse(await res.json()).days).toEqual([
      { date: '2026-03-10', saved: 1, actual: 0.5, energyWh: 0, waterL: 0, messages: 5 },
    ])
  })

  it('defaults to 30 days and accepts 1 to 365', async () => {
    const { cookie } = await t.signUp()
    const get = async (q: string) => t.request(`/api/metrics/co2/history${q}`, { cookie })
    const fallback = co2HistoryResponse.parse(await (await get('')).json())
    expect(fallback.days).toHaveLength(30)
    expect(fallback.days[0]?.date).toBe('2026-02-09')
    expect(co2HistoryResponse.parse(await (await get('?days=1')).json()).days).toEqual([
      { date: '2026-03-10', saved: 0, actual: 0, energyWh: 0, waterL: 0, messages: 0 },
    ])
    expect(co2HistoryResponse.parse(await (await get('?days=365')).json()).days).toHaveLength(365)
    for (const bad of ['0', '366', '2.5', 'week']) {
      const res = await get(`?days=${bad}`)
      expect(res.status).toBe(400)
      expect(((await res.json()) as { message: string }).message).toBe(
        'days must be a whole number from 1 to 365',
      )
    }
  })

  it('starts the window at midnight UTC', () => {
    expect(historyStart(new Date('2026-01-01T05:00:00Z'), 3).toISOString()).toBe('2025-12-30T00:00:00.000Z')
  })
})
