// Replies are generated detached from the HTTP request that asked for them: the response only
// subscribes, so a closed tab never loses a reply. Progress is saved every FLUSH_MS, for all the
// replies of this process in one statement (progress-saver.ts), which is also when a Stop pressed
// on another node (a DB flag) is noticed; each save, or a lease renewal at least every
// FLAG_CHECK_MS, keeps this node's lease on the reply (lease.ts).
import { streamText } from 'ai'
import type { Logger } from 'pino'
import { type ChatErrorCode, type ChatWait, chatErrorCodes } from '#contract/chat-events.ts'
import type { Db } from '#server/db/client.ts'
import { ecoLanguageModel } from '#server/features/eco-engine/language-model.ts'
import { energyFromMetadata } from '#server/features/eco-engine/reported-energy.ts'
import type { MeasuredEnergy } from '#server/features/impact/message-impact.ts'
import type { BackgroundWork } from '#server/lib/background-work.ts'
import { classify, type Ending, loggableError } from './failures.ts'
import { type FinishedReply, finalizeReply, type ReplyOutcome } from './finalize.ts'
import type { HistoryExchange, Prompt } from './history.ts'
import { leanModel, leanStream } from './model-stream.ts'
import { ProgressSaver } from './progress-saver.ts'
import type { ResolvedModel } from './providers/registry.ts'
import { ThreadHistories } from './thread-histories.ts'
export const MAX_GENERATION_MS = 5 * 60_000
const CHUNK_TIMEOUT_MS = 90_000

export interface GenerationEnd {
  outcome: ReplyOutcome
  code: ChatErrorCode | null
  /** The user's sent-message count once this reply was stored (absent if storing failed). */
  userMessageCount?: number
}
export type GenerationEvent =
  | { type: 'text'; text: string }
  | { type: 'wait'; wait: ChatWait | null }
  | { type: 'end'; end: GenerationEnd }

/** What the model is asked: known before the send is stored (early-start.ts). */
export interface ModelCall {
  resolved: ResolvedModel
  prompt: Prompt
}

/** The stored send a reply belongs to. */
export interface StoredSend {
  messageId: string
  /**
   * The attempt at the reply this generation writes (messages.attempt_id): a retry that restarted
   * the row made another, and this one's saves and end are then refused (decision 009).
   */
  attemptId: string
  userId: string
  threadId: string | null
  inputChars: number
  /**
   * The exchanges before this one as the send read them, and this one's turn: with the reply,
   * the thread's history for its next send (thread-histories.ts). Absent: nothing is kept.
   */
  history?: HistoryExchange[]
  turn?: Pick<HistoryExchange, 'content' | 'mediaType'>
}

export type GenerationJob = StoredSend & ModelCall

export class Generation {
  text = ''
  /** When the first text arrived (performance.now()), for the time-to-first-token metric. */
  firstTextAt: number | null = null
  /** Why the reply has not started yet (eco engine queue or preparation); null once it has. */
  wait: ChatWait | null = null
  end: GenerationEnd | null = null
  stopRequested = false
  readonly controller = new AbortController()
  private readonly listeners = new Set<(e: GenerationEvent) => void>()

  /** The text so far and every later event, with no gap between them (single-threaded). */
  subscribe(listener: (e: GenerationEvent) => void) {
    if (!this.end) this.listeners.add(listener)
    return {
      snapshot: this.text,
      wait: this.wait,
      end: this.end,
      unsubscribe: () => this.listeners.delete(listener),
    }
  }

  setWait(wait: ChatWait | null) {
    if (JSON.stringify(wait) === JSON.stringify(this.wait)) return
    this.wait = wait
    for (const l of this.listeners) l({ type: 'wait', wait })
  }

  push(text: string) {
    this.firstTextAt ??= performance.now()
    this.text += text
    for (const l of this.listeners) l({ type: 'text', text })
  }

  finish(end: GenerationEnd) {
    this.end = end
    for (const l of this.listeners) l({ type: 'end', end })
    this.listeners.clear()
  }

  stop() {
    this.stopRequested = true
    this.controller.abort()
  }
}

export interface GenerationDeps {
  db: Db
  log: Logger
  now: () => Date
}

/** How the model's stream ended. */
export interface ModelResult {
  ending: Ending
  usage: { inputTokens?: number; outputTokens?: number }
  measured: MeasuredEnergy | null
  started: number
}

/**
 * Streams the model into `gen` until it ends, is stopped or times out. Never throws. With `hold`
 * (an early call, decision 033) the provider's request is made at once but sent whole only once
 * `hold` resolves; a model this process runs, or one off the lean path, starts only then.
 */
export async function streamModel(
  gen: Generation,
  call: ModelCall,
  hold?: Promise<unknown>,
): Promise<ModelResult> {
  const started = performance.now()
  let ending: Ending = { kind: 'finished' }
  let usage: ModelResult['usage'] = {}
  let measured: MeasuredEnergy | null = null
  try {
    let model = call.resolved.model
    const engine = call.resolved.local
    // Only a provider's request can be held (wire-fetch.ts); anything else starts once released.
    if (hold && (engine || !leanModel(model))) {
      await hold
      gen.controller.signal.throwIfAborted()
    }
    if (engine) {
      // First use: the model may still be downloading or loading. The reply says so and waits,
      // outside the generation timeouts; Stop still works (the signal).
      if (engine.status().state !== 'ready') {
        const show = () => gen.setWait({ kind: 'preparing', percent: engine.status().percent })
        show()
        const unsubscribe = engine.onStatus(show)
        try {
          await engine.ready(gen.controller.signal)
        } finally {
          unsubscribe()
        }
      }
      model = ecoLanguageModel(engine, call.resolved.modelId, {
        onQueued: (position) => gen.setWait(position > 0 ? { kind: 'queued', position } : null),
        onMeasured: (energy) => {
          measured = energy
        },
      })
    }
    const lean = leanModel(model)
    if (lean) {
      // The provider's own stream (model-stream.ts): no SDK retries either; a stop or a timeout
      // ends it with a throw, handled below.
      const parts = leanStream(
        lean,
        { system: call.prompt.system, messages: call.prompt.messages },
        {
          signal: gen.controller.signal,
          totalMs: MAX_GENERATION_MS,
          chunkMs: CHUNK_TIMEOUT_MS,
          onText: (text) => gen.push(text),
          hold,
        },
      )
      for await (const part of parts) {
        if (part.type === 'text-delta') gen.push(part.text)
        else if (part.type === 'finish') {
          usage = part.usage
          measured ??= part.usage.energy ?? null
        } else ending = { kind: 'error', error: part.error }
      }
    } else {
      const result = streamText({
        model,
        system: call.prompt.system,
        messages: call.prompt.messages,
        // The client retries a failed send itself (spec 4, 3 attempts); SDK retries would multiply them.
        maxRetries: 0,
        abortSignal: gen.controller.signal,
        timeout: { totalMs: MAX_GENERATION_MS, chunkMs: CHUNK_TIMEOUT_MS },
        onError: () => {},
      })
      for await (const part of result.fullStream) {
        if (part.type === 'text-delta') gen.push(part.text)
        else if (part.type === 'finish') usage = part.totalUsage
        else if (part.type === 'finish-step') measured ??= energyFromMetadata(part.providerMetadata)
        else if (part.type === 'error') ending = { kind: 'error', error: part.error }
        else if (part.type === 'abort') ending = { kind: gen.stopRequested ? 'stopped' : 'timeout' }
      }
    }
  } catch (error) {
    // A dropped connection or an abort surfaces as a throw from the stream itself.
    ending = gen.stopRequested
      ? { kind: 'stopped' }
      : isAbort(error)
        ? { kind: 'timeout' }
        : { kind: 'error', error }
  }
  gen.setWait(null)
  return { ending, usage, measured, started }
}

/**
 * Saves the reply's progress while `model` (streamModel's) runs, then stores the reply whatever
 * the outcome.
 */
export async function runGeneration(
  deps: GenerationDeps,
  gen: Generation,
  job: GenerationJob,
  saver: ProgressSaver,
  model: Promise<ModelResult>,
  /** Told the outcome once this node stored it, before the reply's end is announced. */
  onStored?: (outcome: ReplyOutcome) => void,
): Promise<void> {
  const log = deps.log.child({ messageId: job.messageId, modelId: job.resolved.modelId })
  saver.add({
    messageId: job.messageId,
    attemptId: job.attemptId,
    text: () => gen.text,
    stop: () => {
      if (!gen.end) gen.stop()
    },
  })
  const { ending, usage, measured, started } = await model
  // No save of this reply runs after this: finalizeReply writes its last state.
  await saver.remove(job.attemptId)
  if (ending.kind === 'error') log.warn({ error: loggableError(ending.error) }, 'model call failed')

  const { outcome, code } = classify(job.resolved.chatModel, ending, gen.text)
  const reply: FinishedReply = {
    messageId: job.messageId,
    attemptId: job.attemptId,
    userId: job.userId,
    threadId: job.threadId,
    chatModel: job.resolved.chatModel,
    provider: job.resolved.provider,
    modelId: job.resolved.modelId,
    outcome,
    inputTokens: usage.inputTokens ?? null,
    outputTokens: usage.outputTokens ?? null,
    latencyMs: Math.round(performance.now() - started),
    firstTokenMs: gen.firstTextAt === null ? null : Math.round(gen.firstTextAt - started),
    inputChars: job.inputChars,
    impact: job.resolved.impact,
    measuredEnergy: measured,
    now: deps.now(),
  }
  let userMessageCount: number | undefined
  try {
    const finished = await finalizeReply(deps.db, reply)
    userMessageCount = finished.userMessageCount
    if (finished.stored) onStored?.(outcome)
  } catch (err) {
    log.error({ err }, 'storing the finished reply failed')
  }
  log.info({ status: outcome.status, latencyMs: reply.latencyMs, chars: gen.text.length }, 'reply finished')
  gen.finish({ outcome, code, userMessageCount })
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')
}

/** The generations running on this node, by message id. */
export class GenerationRegistry {
  private readonly running = new Map<string, { gen: Generation; done: Promise<void> }>()
  /** One saver per database: the progress of every reply here in one statement per tick. */
  private readonly savers = new Map<Db, ProgressSaver>()
  /** Each thread's history after the last reply stored here, for an early start of its next send. */
  readonly histories = new ThreadHistories()

  constructor(
    private readonly background?: BackgroundWork,
    /**
     * Whether to keep them: only where this process is the database's only writer (the embedded
     * one). Elsewhere a deletion made through another node could not reach this node's copy, and
     * an early call would send the provider what the person had deleted (decision 033).
     */
    private readonly keepHistories = true,
  ) {}

  get(messageId: string): Generation | undefined {
    return this.running.get(messageId)?.gen
  }

  start(deps: GenerationDeps, job: GenerationJob): Generation {
    const gen = new Generation()
    return this.run(deps, gen, job, streamModel(gen, job))
  }

  /** Runs `gen` as `job`'s reply, its model call (streamModel's) already under way. */
  run(deps: GenerationDeps, gen: Generation, job: GenerationJob, model: Promise<ModelResult>): Generation {
    let saver = this.savers.get(deps.db)
    if (!saver) {
      saver = new ProgressSaver(deps.db, deps.log)
      this.savers.set(deps.db, saver)
    }
    const done = runGeneration(deps, gen, job, saver, model, (outcome) => this.remember(job, outcome))
      .catch((err) => {
        deps.log.error({ err, messageId: job.messageId }, 'generation crashed')
        // Subscribers must never wait forever.
        const errorMessage = 'Something went wrong on our side. Please try again.'
        if (!gen.end)
          gen.finish({
            outcome: { status: 'failed', response: gen.text, errorMessage },
            code: chatErrorCodes.internal,
          })
      })
      .finally(() => {
        // A crash skipped runGeneration's own removal: no more saves of this reply.
        void saver.remove(job.attemptId)
        // Unless a retry restarted the row here meanwhile: the new attempt is the one followed.
        if (this.running.get(job.messageId)?.gen === gen) this.running.delete(job.messageId)
      })
    this.running.set(job.messageId, { gen, done })
    this.background?.track(done)
    return gen
  }

  private remember(job: GenerationJob, outcome: ReplyOutcome) {
    if (!this.keepHistories || !job.history || !job.turn || !job.threadId) return
    const reply = { ...job.turn, response: outcome.response, status: outcome.status }
    this.histories.set(job.threadId, job.userId, [...job.history, reply])
  }

  stop(messageId: string): boolean {
    const entry = this.running.get(messageId)
    entry?.gen.stop()
    return Boolean(entry)
  }

  /** Resolves when every generation running now has been stored. */
  async idle(): Promise<void> {
    await Promise.all([...this.running.values()].map((e) => e.done))
  }

  get size(): number {
    return this.running.size
  }
}
