// A send's model call started while the statement that stores the send runs (decision 033): the
// statement's round trip and the making of the provider's request overlap instead of adding up.
// The call is made on a guess of the history the statement will read (none for a new thread, the
// history this node kept for a thread it answered last: thread-histories.ts), and its request is
// sent but for its last byte (wire-fetch.ts): the provider acts on it only once the statement has
// stored the send on exactly the history guessed. Otherwise the call is stopped, and the provider
// never read it. A person has one early call at a time.
import type { GenerationDeps, GenerationRegistry, ModelCall, ModelResult, StoredSend } from './generation.ts'
import { Generation, streamModel } from './generation.ts'
import type { HistoryExchange } from './history.ts'

/** Counted by tests: early calls begun on this process. */
export const earlyStartStats = { begun: 0 }

export class EarlyStarts {
  private readonly inFlight = new Set<string>()

  /** Starts `call` now, guessing the send reads `guess` as its history; null when this person has one. */
  begin(userId: string, guess: HistoryExchange[], call: ModelCall): EarlyStart | null {
    if (this.inFlight.has(userId)) return null
    this.inFlight.add(userId)
    earlyStartStats.begun++
    return new EarlyStart(guess, call, () => this.inFlight.delete(userId))
  }
}

export class EarlyStart {
  private readonly gen = new Generation()
  private readonly model: Promise<ModelResult>
  private release: () => void = () => {}
  private settled = false

  constructor(
    private readonly guess: HistoryExchange[],
    private readonly call: ModelCall,
    private readonly onSettled: () => void,
  ) {
    const hold = new Promise<void>((resolve) => {
      this.release = resolve
    })
    this.model = streamModel(this.gen, call, hold)
  }

  /**
   * The stored send's generation, its request sent whole now, when the send read the history
   * guessed (`send.history`): the call's own prompt is then the one the send would be given. Else
   * null, and the call is stopped (the caller starts the reply on what was read).
   */
  take(
    registry: GenerationRegistry,
    deps: GenerationDeps,
    send: StoredSend & { history: HistoryExchange[] },
  ) {
    if (this.settled) return null
    if (!sameHistory(this.guess, send.history)) {
      this.cancel()
      return null
    }
    this.settle()
    return registry.run(deps, this.gen, { ...send, ...this.call }, this.model)
  }

  /** The send was not stored (refused, or it failed): the call stops unsent. A no-op once taken. */
  cancel() {
    if (this.settled) return
    this.gen.stop()
    this.settle()
  }

  private settle() {
    this.settled = true
    this.release()
    this.onSettled()
  }
}

function sameHistory(a: HistoryExchange[], b: HistoryExchange[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as HistoryExchange
    const y = b[i] as HistoryExchange
    if (x.content !== y.content || x.response !== y.response || x.status !== y.status) return false
    if (x.mediaType !== y.mediaType) return false
  }
  return true
}
