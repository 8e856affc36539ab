// Replies are generated detached from the HTTP request that asked for them: the response only
// subscribes, so a closed tab never loses a reply. Its progress is saved with every reply of this
// process (progress-saver.ts), which notices a Stop on another node and keeps the lease (lease.ts).
import type { ModelMessage } from 'ai'
import type { Logger } from 'pino'
import { type ChatErrorCode, type ChatWait, chatErrorCodes } from '#contract/chat-events.ts'
import type { Source, ToolStep } from '#contract/tools.ts'
import type { Db } from '#server/db/client.ts'
import type { MeasuredEnergy } from '#server/features/impact/message-impact.ts'
import { approvalExpiry, type PendingApproval } from '#server/features/models/approval.ts'
import type { ResolvedModel } from '#server/features/models/registry.ts'
import { streamReply } from '#server/features/models/stream-reply.ts'
import type { BackgroundWork } from '#server/lib/background-work.ts'
import { classify, type Ending, loggableError } from './failures.ts'
import { type EarlierPart, type FinishedReply, finalizeReply, type ReplyOutcome } from './finalize.ts'
import type { Prompt } from './history.ts'
import type { PreparedLookup } from './lookup.ts'
import { ProgressSaver } from './progress-saver.ts'

export interface GenerationEnd {
  outcome: ReplyOutcome
  code: ChatErrorCode | null
  /** The user's sent-message count once this reply was stored (absent if storing failed). */
  userMessageCount?: number
  /** The reply's sources, numbered from 1 (decision 065). */
  sources?: Source[]
}
export type GenerationEvent =
  | { type: 'text'; text: string }
  | { type: 'wait'; wait: ChatWait | null }
  | { type: 'tool-step'; step: ToolStep }
  | { type: 'sources'; sources: Source[] }
  | { type: 'end'; end: GenerationEnd }

/** What the model is asked. */
export interface ModelCall {
  resolved: ResolvedModel
  prompt: Prompt
  /** Prepares the reply's lookups (tools offered, or context found first): chat/lookup.ts. */
  lookup?: (signal: AbortSignal) => Promise<PreparedLookup>
  /** The send's search toggle, kept with a reply that waits for approval (the same tools again). */
  webSearch?: boolean
  /** What the reply wrote before it waited for approval, and its messages, the answer last. */
  earlier?: EarlierPart & { messages: ModelMessage[] }
}

/** The stored send a reply belongs to. */
export interface StoredSend {
  messageId: string
  /** The attempt this generation writes (messages.attempt_id): a retry's restart refuses its saves. */
  attemptId: string
  userId: string
  threadId: string | null
  inputChars: number
}

export type GenerationJob = StoredSend & ModelCall

export class Generation {
  text = ''
  /** When the first text arrived (performance.now()), for the time-to-first-token metric. */
  firstTextAt: number | null = null
  /** Why the reply has not started yet (eco engine queue or preparation); null once it has. */
  wait: ChatWait | null = null
  /** What the reply looked up so far: its sources (numbered from 1) and tool calls. */
  sources: Source[] = []
  toolSteps: ToolStep[] = []
  /** The calls waiting for the person's approval when the model's call ended (AI SDK ids). */
  approvals: PendingApproval['requests'] = []
  end: GenerationEnd | null = null
  stopRequested = false
  readonly controller = new AbortController()
  private readonly listeners = new Set<(e: GenerationEvent) => void>()

  /** What happened so far, as events, and every later event: no gap between them (single-threaded). */
  subscribe(listener: (e: GenerationEvent) => void) {
    if (!this.end) this.listeners.add(listener)
    const past: GenerationEvent[] = [
      ...(this.wait ? [{ type: 'wait' as const, wait: this.wait }] : []),
      ...this.toolSteps.map((step) => ({ type: 'tool-step' as const, step })),
      ...(this.sources.length ? [{ type: 'sources' as const, sources: this.sources }] : []),
      ...(this.text ? [{ type: 'text' as const, text: this.text }] : []),
      ...(this.end ? [{ type: 'end' as const, end: this.end }] : []),
    ]
    return { past, unsubscribe: () => this.listeners.delete(listener) }
  }

  setWait(wait: ChatWait | null) {
    if (JSON.stringify(wait) === JSON.stringify(this.wait)) return
    this.wait = wait
    for (const l of this.listeners) l({ type: 'wait', wait })
  }

  /** A tool call as it starts, and again (same id) as it ends. */
  setToolStep(step: ToolStep) {
    const at = this.toolSteps.findIndex((s) => s.id === step.id)
    if (at >= 0) this.toolSteps[at] = step
    else this.toolSteps.push(step)
    for (const l of this.listeners) l({ type: 'tool-step', step })
  }

  setSources(sources: Source[]) {
    if (sources.length === this.sources.length) return
    this.sources = sources
    for (const l of this.listeners) l({ type: 'sources', sources })
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
  /** The call's own messages, when it ended asking for approval. */
  responseMessages?: ModelMessage[]
}

/** Streams the model's reply into `gen` until it ends, is stopped or times out. Never throws. */
export async function streamModel(gen: Generation, job: ModelCall): Promise<ModelResult> {
  const started = performance.now()
  let ending: Ending = { kind: 'finished' }
  let usage: ModelResult['usage'] = {}
  let measured: MeasuredEnergy | null = null
  let responseMessages: ModelMessage[] | undefined
  try {
    const lookup = await prepareLookup(gen, job)
    // What was looked up first (models without tools) goes after the prompt's system text.
    const context = lookup?.context
    const prompt = context ? { ...job.prompt, system: `${job.prompt.system}\n\n${context}` } : job.prompt
    const messages = job.earlier ? [...prompt.messages, ...job.earlier.messages] : prompt.messages
    const parts = streamReply(
      job.resolved,
      { ...prompt, messages },
      {
        signal: gen.controller.signal,
        tools: lookup?.tools,
        onWait: (wait) => gen.setWait(wait),
        // The reply's text goes straight to the generation, without a part per chunk (lean path).
        onText: (text) => gen.push(text),
      },
    )
    for await (const part of parts) {
      if (part.type === 'text') gen.push(part.text)
      else if (part.type === 'tool-call') gen.setToolStep(stepOf(part.call, 'running'))
      else if (part.type === 'tool-result' || part.type === 'tool-error') {
        gen.setToolStep(
          part.type === 'tool-result'
            ? stepOf(part.result, 'done', stepResult(part.result.output))
            : stepOf(part.failure, 'failed', stepResult(errorText(part.failure.error))),
        )
        if (lookup) gen.setSources(lookup.sources())
      } else if (part.type === 'approval-request') {
        gen.approvals.push({ approvalId: part.approvalId, toolCallId: part.call.toolCallId })
        gen.setToolStep(stepOf(part.call, 'awaiting-approval'))
      } else if (part.type === 'tool-denied') {
        const step = gen.toolSteps.find((s) => s.id === part.toolCallId)
        if (step && step.status !== 'refused') gen.setToolStep({ ...step, status: 'refused' })
      } else if (part.type === 'source') {
        const s = part.source
        if (lookup && 'url' in s && typeof s.url === 'string') {
          lookup.addSource({ url: s.url, title: s.title ?? s.url })
          gen.setSources(lookup.sources())
        }
      } else if (part.type === 'finish') {
        usage = part.usage
        measured = part.measured
        responseMessages = part.responseMessages
      } else if (part.type === 'error') ending = { kind: 'error', error: part.error }
      else if (part.type === 'abort') ending = { kind: gen.stopRequested ? 'stopped' : 'timeout' }
    }
  } catch (error) {
    // A dropped connection, or a stop while our own engine was still preparing.
    if (gen.stopRequested || isAbort(error)) ending = { kind: gen.stopRequested ? 'stopped' : 'timeout' }
    else ending = { kind: 'error', error }
  }
  return { ending, usage, measured, started, responseMessages }
}

/** A tool call as its step shows it. */
function stepOf(
  call: { toolCallId: string; toolName: string; input: unknown },
  status: ToolStep['status'],
  result?: string,
): ToolStep {
  return {
    id: call.toolCallId,
    name: call.toolName,
    args: call.input,
    ...(result === undefined ? {} : { result }),
    status,
  }
}

/** How much of a tool's result a step keeps to show. */
const STEP_RESULT_CHARS = 2_000

function stepResult(output: unknown): string {
  const text = typeof output === 'string' ? output : JSON.stringify(output ?? null)
  return text.length > STEP_RESULT_CHARS ? `${text.slice(0, STEP_RESULT_CHARS)}…` : text
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The reply's lookups, or none when they cannot be prepared (the reply goes on without). */
async function prepareLookup(gen: Generation, job: ModelCall): Promise<PreparedLookup | null> {
  if (!job.lookup) return null
  const lookup = await job.lookup(gen.controller.signal).catch(() => null)
  if (!lookup) return null
  // A reply going on after an approval keeps its sources' numbers: the text cites them.
  for (const source of job.earlier?.sources ?? []) lookup.addSource(source)
  gen.setSources(lookup.sources())
  return lookup
}

/** Saves the reply's progress while `model` (streamModel's) runs, then stores it whatever the outcome. */
export async function runGeneration(
  deps: GenerationDeps,
  gen: Generation,
  job: GenerationJob,
  saver: ProgressSaver,
  model: Promise<ModelResult>,
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
  const result = await model
  const { ending, responseMessages } = result
  // No save of this reply runs after this: finalizeReply writes its last state.
  await saver.remove(job.attemptId)
  if (ending.kind === 'error') log.warn({ error: loggableError(ending.error) }, 'model call failed')

  const pending = waitingFor(gen, job, ending, responseMessages, deps.now())
  const { outcome, code } = pending
    ? { outcome: { status: 'complete' as const, response: gen.text, errorMessage: null }, code: null }
    : classify(job.resolved.chatModel, ending, gen.text)
  const reply = { ...finishedReply(gen, job, result, outcome, deps.now()), pendingApproval: pending }
  const userMessageCount = await finalizeReply(deps.db, reply).then(
    (finished) => finished.userMessageCount,
    (err: unknown) => void log.error({ err }, 'storing the finished reply failed'),
  )
  log.info({ status: outcome.status, latencyMs: reply.latencyMs, chars: gen.text.length }, 'reply finished')
  gen.finish({ outcome, code, userMessageCount, sources: gen.sources })
}

/** How a reply ended, as finalize.ts stores it (a temporary chat's: only charges it). */
export function finishedReply(
  gen: Generation,
  job: StoredSend & Pick<ModelCall, 'resolved' | 'earlier'>,
  { usage, measured, started }: ModelResult,
  outcome: ReplyOutcome,
  now: Date,
): FinishedReply {
  const { resolved, earlier } = job
  return {
    messageId: job.messageId,
    attemptId: job.attemptId,
    userId: job.userId,
    threadId: job.threadId,
    chatModel: resolved.chatModel,
    provider: resolved.provider,
    modelId: resolved.modelId,
    outcome,
    inputTokens: sum(earlier?.inputTokens, usage.inputTokens),
    outputTokens: sum(earlier?.outputTokens, usage.outputTokens),
    latencyMs: Math.round(performance.now() - started) + (earlier?.latencyMs ?? 0),
    firstTokenMs: gen.firstTextAt === null ? null : Math.round(gen.firstTextAt - started),
    inputChars: job.inputChars,
    impact: resolved.impact,
    measuredEnergy: measured,
    sources: gen.sources,
    toolSteps: gen.toolSteps,
    earlier,
    route: resolved.route,
    now,
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')
}

/** Ends a reply whose generation crashed as failed: its subscribers must never wait forever. */
export function failUnended(gen: Generation): void {
  const errorMessage = 'Something went wrong on our side. Please try again.'
  if (!gen.end)
    gen.finish({
      outcome: { status: 'failed', response: gen.text, errorMessage },
      code: chatErrorCodes.internal,
    })
}

const sum = (a: number | null | undefined, b: number | undefined) =>
  a == null && b === undefined ? null : (a ?? 0) + (b ?? 0)

/**
 * What a reply that ended asking for approval keeps to go on (null when it did not): the steps
 * waiting say which message answers them and until when.
 */
function waitingFor(
  gen: Generation,
  job: GenerationJob,
  ending: Ending,
  responseMessages: ModelMessage[] | undefined,
  now: Date,
): PendingApproval | null {
  if (ending.kind !== 'finished' || gen.approvals.length === 0 || !responseMessages) return null
  const expiresAt = approvalExpiry(now).toISOString()
  for (const step of gen.toolSteps)
    if (step.status === 'awaiting-approval')
      gen.setToolStep({ ...step, approval: { messageId: job.messageId, expiresAt } })
  return {
    expiresAt,
    requests: gen.approvals,
    messages: [...(job.earlier?.messages ?? []), ...responseMessages],
    webSearch: job.webSearch ?? false,
  }
}

/** The generations running on this node, by message id. */
export class GenerationRegistry {
  private readonly running = new Map<string, { gen: Generation; done: Promise<void> }>()
  /** One saver per database: the progress of every reply here in one statement per tick. */
  private readonly savers = new Map<Db, ProgressSaver>()

  constructor(private readonly background?: BackgroundWork) {}

  get(messageId: string): Generation | undefined {
    return this.running.get(messageId)?.gen
  }

  start(deps: GenerationDeps, job: GenerationJob): Generation {
    const gen = new Generation()
    // A reply going on after an approval starts from what it had written.
    if (job.earlier) {
      gen.text = job.earlier.response
      gen.sources = job.earlier.sources
      gen.toolSteps = [...job.earlier.toolSteps]
    }
    return this.run(deps, gen, job, streamModel(gen, job))
  }

  /** Runs `gen` as `job`'s reply, its model call (streamModel's) already under way. */
  run(deps: GenerationDeps, gen: Generation, job: GenerationJob, model: Promise<ModelResult>): Generation {
    let saver = this.savers.get(deps.db)
    if (!saver) {
      saver = new ProgressSaver(deps.db, deps.log)
      this.savers.set(deps.db, saver)
    }
    const done = runGeneration(deps, gen, job, saver, model)
      .catch((err) => {
        deps.log.error({ err, messageId: job.messageId }, 'generation crashed')
        failUnended(gen)
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

  /** Work a reply kept outside this registry does (a temporary chat's): a graceful stop waits for it. */
  track(done: Promise<unknown>): void {
    this.background?.track(done)
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
}
