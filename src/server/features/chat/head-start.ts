// The model asked while a send is still being stored (issue 15, decision 027). A new thread's
// first prompt is known before its statement runs (it has no history), so a hosted model's request
// goes out at once and the statement's time is spent while the provider prepares its answer. The
// text that comes before the send is admitted waits in the generation; a send that is refused
// aborts the request. A refused send has then cost a provider request it would not have made, so
// a head start is only taken when a refusal is unlikely and its cost is bounded: never for a
// person whose head start was thrown away in the last minute, nor past the replies they may have
// generating at once on this node.
import { MAX_GENERATING_PER_USER } from './admission.ts'
import {
  Generation,
  type GenerationDeps,
  type GenerationJob,
  type GenerationRegistry,
  type ModelJob,
  type Streamed,
  streamModel,
} from './generation.ts'

/** How long a person who had a head start thrown away sends without one. */
export const WASTE_WINDOW_MS = 60_000
/** People remembered for it at most (the oldest go first). */
const REMEMBERED = 10_000

export class HeadStart {
  readonly gen = new Generation()
  readonly streaming: Promise<Streamed>
  private settled = false

  constructor(
    private readonly starts: HeadStarts,
    readonly userId: string,
    job: ModelJob,
  ) {
    this.streaming = streamModel(this.gen, job)
  }

  /** The send was stored: its reply goes on from what the model has sent so far. */
  take(deps: GenerationDeps, job: GenerationJob): Generation {
    this.settle(false)
    return this.starts.generations.start(deps, job, this)
  }

  /** The send was not stored: the model's request is aborted (nothing was written). */
  discard() {
    if (this.settled) return
    this.settle(true)
    this.gen.stop()
  }

  private settle(wasted: boolean) {
    this.settled = true
    this.starts.settled(this.userId, wasted)
  }
}

export class HeadStarts {
  /** Head starts not yet taken or discarded, by user id. */
  private readonly open = new Map<string, number>()
  /** When a head start of this user was last thrown away (ms). */
  private readonly wasted = new Map<string, number>()

  constructor(
    readonly generations: GenerationRegistry,
    private readonly now: () => number = Date.now,
  ) {}

  /** The model asked now for a send not yet stored, or null when a refusal would not be cheap. */
  begin(userId: string, job: ModelJob): HeadStart | null {
    // The eco engine runs here: its queue and its CPU are not spent on a send that may be refused.
    if (job.resolved.local) return null
    const wastedAt = this.wasted.get(userId)
    if (wastedAt !== undefined && this.now() - wastedAt < WASTE_WINDOW_MS) return null
    const open = this.open.get(userId) ?? 0
    if (open + this.generations.generatingFor(userId) >= MAX_GENERATING_PER_USER) return null
    this.open.set(userId, open + 1)
    return new HeadStart(this, userId, job)
  }

  /** @internal HeadStart's bookkeeping. */
  settled(userId: string, wasted: boolean) {
    const left = (this.open.get(userId) ?? 1) - 1
    if (left > 0) this.open.set(userId, left)
    else this.open.delete(userId)
    if (!wasted) return
    this.wasted.delete(userId)
    this.wasted.set(userId, this.now())
    if (this.wasted.size > REMEMBERED) this.wasted.delete(this.wasted.keys().next().value as string)
  }
}
