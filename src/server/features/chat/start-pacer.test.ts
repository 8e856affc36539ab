// The start pacer (decision 029) on a clock the test turns by hand: how many sends begin per turn
// by the turn's length, in order, none stranded, and nothing scheduled on a quiet server.
import { describe, expect, it } from 'vitest'
import { BUSY_TURN_MS, type PacerClock, STARTS_PER_QUICK_TURN, StartPacer } from './start-pacer.ts'

/** A loop whose turns the test ends: `endTurn(ms)` lets `ms` pass and runs what was deferred. */
function handLoop() {
  let time = 0
  let deferred: Array<() => void> = []
  const clock: PacerClock = { now: () => time, defer: (fn) => deferred.push(fn) }
  return {
    clock,
    scheduled: () => deferred.length,
    async endTurn(ms: number) {
      time += ms
      const run = deferred
      deferred = []
      for (const fn of run) fn()
      // Let the sends released in this turn run their continuation.
      await Promise.resolve()
    },
  }
}

/** Asks for `n` turns; returns the order in which they were granted. */
function ask(pacer: StartPacer, n: number, begun: number[], from = 0) {
  for (let i = from; i < from + n; i++) {
    const turn = pacer.turn()
    if (turn) void turn.then(() => begun.push(i))
    else begun.push(i)
  }
}

describe('start pacer', () => {
  it('lets a send on a quiet server begin at once, and stops measuring once the burst is over', async () => {
    const loop = handLoop()
    const pacer = new StartPacer(loop.clock)
    expect(pacer.turn()).toBeUndefined()
    expect(loop.scheduled()).toBe(1)
    await loop.endTurn(1)
    // Nothing began or waits in that turn: no further tick, so an idle server wakes for nothing.
    expect(loop.scheduled()).toBe(0)
    expect(pacer.turn()).toBeUndefined()
  })

  it(`begins ${STARTS_PER_QUICK_TURN} a turn while turns are short, one a turn once they are long, in order`, async () => {
    const loop = handLoop()
    const pacer = new StartPacer(loop.clock)
    const begun: number[] = []
    ask(pacer, 20, begun)
    expect(begun).toEqual([0, 1, 2, 3])
    expect(pacer.queued).toBe(16)

    await loop.endTurn(BUSY_TURN_MS - 1)
    expect(begun).toEqual([0, 1, 2, 3, 4, 5, 6, 7])

    // A long turn: the replies streaming come first, one send begins.
    await loop.endTurn(BUSY_TURN_MS + 10)
    expect(begun).toHaveLength(9)
    await loop.endTurn(200)
    expect(begun).toHaveLength(10)
    // A send arriving during a long turn waits behind the queue, not beside it.
    ask(pacer, 1, begun, 20)
    expect(begun).toHaveLength(10)

    // Short turns again: four a turn until all have begun, each once, in the order they came.
    while (pacer.queued > 0) await loop.endTurn(2)
    expect(begun).toEqual(Array.from({ length: 21 }, (_, i) => i))
    await loop.endTurn(2)
    expect(loop.scheduled()).toBe(0)
  })

  it('begins at least one send every turn however long the turns are', async () => {
    const loop = handLoop()
    const pacer = new StartPacer(loop.clock)
    const begun: number[] = []
    ask(pacer, 10, begun)
    for (let turn = 1; pacer.queued > 0; turn++) {
      const before = begun.length
      await loop.endTurn(10_000)
      expect(begun.length).toBeGreaterThanOrEqual(before + 1)
      expect(turn).toBeLessThanOrEqual(6)
    }
    expect(begun).toHaveLength(10)
  })
})
