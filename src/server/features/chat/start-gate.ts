// Sends starting at once on this node (decision 024). A send's start (its statement,
// the prompt, the provider's request) is a millisecond or two of this thread; 500 arriving
// together would be half a second of it in one piece, every reply already streaming waiting
// behind it. A few at a time, the replies' tokens are relayed between them; and
// each begins when the event loop's turns leave room for it (start-pacer.ts, decision 029).
import { AppError } from '#server/lib/app-error.ts'
import { ConcurrencyLimit } from '#server/lib/concurrency-limit.ts'
import { StartPacer } from './start-pacer.ts'

/** Sends in their start at once: enough to keep the database and the providers busy. */
export const STARTING_AT_ONCE = 8
/** Sends waiting to start; past it a send is answered 503 at once (its text stays in the box). */
export const STARTS_WAITING = 5_000

/** The most sends seen starting at once (tests). */
export const startGateStats = { peak: 0 }

export function startGate() {
  const pacer = new StartPacer()
  const limit = new ConcurrencyLimit(
    STARTING_AT_ONCE,
    STARTS_WAITING,
    () =>
      new AppError(
        'service_unavailable:chat_busy',
        'Loris is very busy right now. Please send your message again in a moment.',
      ),
  )
  return {
    run<T>(start: () => Promise<T>): Promise<T> {
      return limit.run(async () => {
        startGateStats.peak = Math.max(startGateStats.peak, limit.active)
        const turn = pacer.turn()
        if (turn) await turn
        return start()
      })
    },
  }
}
