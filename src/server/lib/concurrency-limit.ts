// At most `max` tasks at once, `maxQueue` waiting; one more is refused at once with `busy()`.
// Bounds work that runs outside the server's thread but still costs the machine CPU and memory
// (ffmpeg decoding images and recordings), so a burst of uploads cannot start a process each.
import type { AppError } from './app-error.ts'

export class ConcurrencyLimit {
  private running = 0
  private waiting: Array<() => void> = []

  constructor(
    readonly max: number,
    readonly maxQueue: number,
    private readonly busy: () => AppError,
  ) {}

  get active(): number {
    return this.running
  }

  /** Tasks waiting for a slot (metrics). */
  get queued(): number {
    return this.waiting.length
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) {
      if (this.waiting.length >= this.maxQueue) throw this.busy()
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    } else this.running++
    try {
      return await task()
    } finally {
      // Hand the slot straight to the next task waiting, or free it.
      const next = this.waiting.shift()
      if (next) next()
      else this.running--
    }
  }
}
