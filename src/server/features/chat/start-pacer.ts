// How fast sends begin their start, by how long the event loop's turns take (decision 029). A
// send's start is a millisecond or two of this thread in several pieces; 500 arriving together and
// begun as fast as the start gate's slots free would grow the loop's turns to 150 to 220 ms while
// the replies already streaming wait for them. Measured as the time between two check phases, a turn under BUSY_TURN_MS
// lets a few sends begin; a longer one lets one begin, so the burst is started from the time the
// relaying leaves, and each turn still begins at least one (none is stranded).

/** A turn longer than this means the replies already streaming need the thread first. */
export const BUSY_TURN_MS = 25
/** Sends begun in one turn while turns are short. */
export const STARTS_PER_QUICK_TURN = 4

export interface PacerClock {
  now(): number
  /** Runs `fn` once the loop has gone round (setImmediate: after this turn's I/O). */
  defer(fn: () => void): void
}

const loopClock: PacerClock = { now: () => performance.now(), defer: (fn) => setImmediate(fn) }

export class StartPacer {
  private readonly waiting: Array<() => void> = []
  /** Sends begun since the last tick, and the tick's time. */
  private begun = 0
  private tickAt = 0
  private ticking = false
  private quick = true

  constructor(private readonly clock: PacerClock = loopClock) {}

  /** Sends waiting for a turn (tests). */
  get queued(): number {
    return this.waiting.length
  }

  /**
   * Nothing when the send may begin now (a quiet server adds no wait to a send), else a promise
   * that resolves on the turn it may.
   */
  turn(): Promise<void> | undefined {
    this.tick()
    if (this.waiting.length === 0 && this.begun < this.allowance()) {
      this.begun++
      return undefined
    }
    return new Promise<void>((resolve) => this.waiting.push(resolve))
  }

  private allowance() {
    return this.quick ? STARTS_PER_QUICK_TURN : 1
  }

  /** Keeps one tick scheduled while sends begin or wait; a quiet server schedules nothing. */
  private tick() {
    if (this.ticking) return
    this.ticking = true
    this.tickAt = this.clock.now()
    this.clock.defer(this.onTick)
  }

  private readonly onTick = () => {
    const now = this.clock.now()
    this.quick = now - this.tickAt < BUSY_TURN_MS
    this.tickAt = now
    this.begun = 0
    const allowance = this.allowance()
    while (this.begun < allowance && this.waiting.length > 0) {
      this.begun++
      this.waiting.shift()?.()
    }
    // Measure the next turn too while anything begins or waits; stop once the burst is over.
    if (this.begun > 0 || this.waiting.length > 0) this.clock.defer(this.onTick)
    else {
      this.ticking = false
      this.quick = true
    }
  }
}
