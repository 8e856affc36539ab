// Sends starting at once on one node (decision 024): a burst starts a few at a time, so the
// replies already streaming are relayed between them; every send of the burst still streams.
import { describe, expect, it } from 'vitest'
import { setUpAiTestApp } from '../../../../tests/helpers/ai-test-app.ts'
import { readEvents } from '../../../../tests/helpers/chat.ts'
import { STARTING_AT_ONCE, startGateStats } from './start-gate.ts'

const app = setUpAiTestApp()

describe('sends starting at once', () => {
  it(`starts at most ${STARTING_AT_ONCE} at a time; the others wait their turn and none is refused`, async () => {
    const { t } = app
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
