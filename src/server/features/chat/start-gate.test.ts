// Sends starting at once on one node (decision 024): a burst starts a few at a time, so the
// replies already streaming are relayed between them; every send of the burst still streams.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readEvents } from '../../../../tests/helpers/chat.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { type AiStandIn, startAiStandIn } from '../../../../tests/stand-ins/ai-providers.ts'
import { STARTING_AT_ONCE, startGateStats } from './start-gate.ts'

let ai: AiStandIn
let t: TestApp
beforeAll(async () => {
  ai = await startAiStandIn()
  t = await createTestApp({ GEMINI_API_KEY: 'test', GEMINI_BASE_URL: ai.geminiBaseUrl })
})
afterAll(async () => {
  await t.close()
  await ai.close()
})

describe('sends starting at once', () => {
  it(`starts at most ${STARTING_AT_ONCE} at a time; the others wait their turn and none is refused`, async () => {
    const people = await Promise.all(Array.from({ length: 3 * STARTING_AT_ONCE }, () => t.signUp()))
    startGateStats.peak = 0
    const answers = await Promise.all(
      people.map(({ cookie }) =>
        t.request('/api/messages', { method: 'POST', cookie, json: { content: 'Hello there' } }),
      ),
    )
    expect(answers.map((r) => r.status)).toEqual(people.map(() => 200))
    expect(startGateStats.peak).toBeGreaterThan(1)
    expect(startGateStats.peak).toBeLessThanOrEqual(STARTING_AT_ONCE)
    const events = await Promise.all(answers.map((r) => readEvents(r)))
    expect(events.map((e) => e.at(-1))).toEqual(people.map(() => expect.objectContaining({ done: true })))
  }, 60_000)
})
