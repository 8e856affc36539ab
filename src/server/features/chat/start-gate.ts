// Sends starting at once on this node (issue 15, decision 024). A send's start (its statement,
// the prompt, the provider's request) is a millisecond or two of this thread; 500 arriving
// together were half a second of it in one piece, and every reply already streaming waited
// behind it (the 500-stream per-token p99 went from about 80 to 200 to 550 ms once the embedded
// database answered faster). A few at a time, the replies' tokens are relayed between them.
import { AppError } from '#server/lib/app-error.ts'
import { ConcurrencyLimit } from '#server/lib/concurrency-limit.ts'

/** Sends in their start at once: enough to keep the database and the providers busy. */
export const STARTING_AT_ONCE = 8
/** Sends waiting to start; past it a send is answered 503 at once (its text stays in the box). */
export const STARTS_WAITING = 5_000

/** The most sends seen starting at once (tests). */
export const startGateStats = { peak: 0 }

export function startGate() {
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
      return limit.run(() => {
        startGateStats.peak = Math.max(startGateStats.peak, limit.active)
        return start()
      })
    },
  }
}
