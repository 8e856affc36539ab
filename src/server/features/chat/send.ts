// POST /api/messages for a signed-in person (the route authenticates), one function per step in
// the order a send takes them: admit (the mode is served, the usage limit), store (the exchange,
// its usage reserved and its history read, in one statement: send-statement.ts), generate (the
// reply runs detached from the request and finalizes itself: generation.ts), stream (the response
// only subscribes to it: stream.ts). Persist before you stream (conventions 4). A send that names a
// clientMessageId seen before is answered as that send (resend), never stored twice.

import { and, eq } from 'drizzle-orm'
import { chatErrorCodes } from '#contract/chat-events.ts'
import { threadTitleFrom } from '#contract/threads.ts'
import type { Db } from '#server/db/client.ts'
import { threads } from '#server/db/schema/index.ts'
import { callsTools } from '#server/features/models/capabilities.ts'
import type { ModelRegistry, ResolvedModel } from '#server/features/models/registry.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { UserRow } from '#server/lib/context.ts'
import { inputCharsOf, limitMessage, resetIsDue, secondsUntilReset, tierOf } from '#server/lib/usage.ts'
import { budgetRefusal, refusalFor, spendSendBudget, type UsageClaim } from './admission.ts'
import { countSentMessages } from './finalize.ts'
import type { GenerationDeps, GenerationJob, GenerationRegistry } from './generation.ts'
import { buildPrompt, type HistoryExchange, type PromptAttachment, userText } from './history.ts'
import { finishLapsed } from './lease.ts'
import type { ReplyLookup } from './lookup.ts'
import {
  contextChars,
  contextSystemText,
  NO_CONTEXT,
  type PromptContext,
  type PromptContextSource,
} from './prompt-context.ts'
import {
  findByClientId,
  findOwnedMessage,
  generatesAgain,
  type MessageRow,
  resetUsageIfDue,
  restartAttempt,
  saveKnowledge,
} from './queries.ts'
import type { SendInput } from './send-input.ts'
import { loadHistory, type Placement, type SendOutcome, type SendRow, startSend } from './send-statement.ts'
import { sseResponse } from './sse.ts'
import { followGeneration, followStored, headOf, replayStored } from './stream.ts'
import { sendTemporary } from './temporary.ts'

export interface ChatServices extends GenerationDeps {
  models: ModelRegistry
  generations: GenerationRegistry
  lookup?: ReplyLookup
  /** Instructions and retrieved passages for a send (app.ts); none when absent. */
  context?: PromptContextSource
}

/** Attempts of a send whose branch moved under it (another send or a switch in the thread). */
const PLACE_ATTEMPTS = 5

export async function sendMessage(
  s: ChatServices,
  user: UserRow,
  input: SendInput,
  signal: AbortSignal,
): Promise<Response> {
  const unserved = unservedResponse(s, input, signal)
  if (unserved) return unserved
  if (input.temporary) return sendTemporary(s, user, input, signal)
  const { place, target } = await placeOf(s.db, user, input)
  // A regeneration answers the revised exchange's text again; an edit brings its own.
  const content = input.regenerateOf && target ? target.content : input.content
  const ctx = await contextOf(s, user, place, content)
  const admission = await admit(s, user, input, content, target, ctx)
  const row = sendRow(user, input, content, target, admission.resolved, s.now())
  const stored = await store(s.db, user, place, row, admission.claim)
  if (stored.kind !== 'stored') return answerUnstored(s, user, input, signal, stored, admission.claim)
  await saveKnowledge(s.db, stored.row.id, ctx)
  return generateAndStream(s, stored.row, admission.resolved, input, signal, stored.history, ctx)
}

/** The instructions and passages the send's prompt carries (none without a context source). */
export async function contextOf(
  s: ChatServices,
  user: UserRow,
  place: Placement | { kind: 'temporary' },
  content: string,
): Promise<PromptContext> {
  if (!s.context) return NO_CONTEXT
  const threadId = place.kind === 'follow' || place.kind === 'revise' ? place.threadId : null
  const projectId = place.kind === 'new-thread' ? (place.projectId ?? null) : null
  return s.context(user.id, { threadId, projectId }, content)
}

/** The context of a stored exchange's reply, in its thread. */
export function storedContextOf(s: ChatServices, user: UserRow, row: MessageRow) {
  const { threadId } = row
  return contextOf(s, user, threadId ? { kind: 'follow', threadId } : { kind: 'temporary' }, row.content)
}

/** A mode without a provider answers one error event naming what is missing; nothing is stored. */
function unservedResponse(s: ChatServices, input: SendInput, signal: AbortSignal): Response | null {
  // A named model is checked when it is resolved (not_found:model).
  if (input.model) return null
  const availability = s.models.availability(input.chatModel)
  if (availability.available) return null
  const error = availability.reason ?? 'This chat mode is not available'
  return sseResponse(signal, (sink) => {
    sink.send({ error, code: chatErrorCodes.unconfigured, status: 'failed' })
    sink.close()
    return undefined
  })
}

/**
 * Where a send goes: a new thread, after the branch the thread shows (a plain send), or beside the
 * exchange it revises (an edit or a regeneration, a sibling of it).
 */
async function placeOf(
  db: Db,
  user: UserRow,
  input: SendInput,
): Promise<{ place: Placement; target?: MessageRow }> {
  const revisedId = input.editOf ?? input.regenerateOf
  if (revisedId) {
    const target = await findOwnedMessage(db, user.id, revisedId)
    if (!target) throw new AppError('not_found:message', 'This message does not exist')
    if (!target.threadId) throw new AppError('not_found:thread', 'This thread does not exist')
    return {
      place: { kind: 'revise', threadId: target.threadId, parentId: target.parentId, depth: target.depth },
      target,
    }
  }
  // A file sent alone names its thread.
  if (!input.threadId)
    return {
      place: {
        kind: 'new-thread',
        title: threadTitleFrom(input.content || input.attachment?.filename || ''),
        projectId: input.projectId ?? null,
      },
    }
  return { place: { kind: 'follow', threadId: input.threadId } }
}

interface Admission {
  resolved: ResolvedModel
  claim: UsageClaim
}

/**
 * The usage tier as the user's row stands and the model it gets; the limits are decided by the
 * statement that stores the send (admission.ts). Edits and regenerations are sends like any other.
 */
export async function admit(
  s: ChatServices,
  user: UserRow,
  input: SendInput,
  content: string,
  target?: MessageRow,
  ctx: PromptContext = NO_CONTEXT,
): Promise<Admission> {
  const chars = inputCharsOf({ content, extractedText: input.attachment?.extractedText }) + contextChars(ctx)
  const { tier, claim } = await usageClaim(s, user, chars)
  return { resolved: modelFor(s.models, input, content, tier, target), claim }
}

/** The user's tier as their row stands (a due reset written first) and what `chars` would claim. */
export async function usageClaim(s: ChatServices, user: UserRow, chars: number) {
  const now = s.now()
  const current = await resetUsageIfDue(s.db, user, now, resetIsDue(user.lastAiUsageReset, now))
  const tier = tierOf(current, now)
  // 429 rather than 402: the limit lifts with time (Retry-After), and paying does not lift the
  // premium one. The client must not retry `rate_limited:usage`.
  const refusal = () =>
    new AppError('rate_limited:usage', limitMessage(tier.plan, current.lastAiUsageReset), {
      headers: { 'Retry-After': String(secondsUntilReset(current.lastAiUsageReset, now)) },
    })
  const claim: UsageClaim = { chars, plan: tier.plan, limit: tier.limit, refusal }
  return { tier, claim }
}

/**
 * The model that answers: the catalogue model the send names (if the person's plan may use it),
 * else the mode's, which in eco mode is routed through its pool (models/routing.ts).
 */
function modelFor(
  models: ModelRegistry,
  input: SendInput,
  content: string,
  tier: ReturnType<typeof tierOf>,
  target: MessageRow | undefined,
): ResolvedModel {
  if (input.model) {
    const named = models.resolveModel(input.model)
    if (named.catalogue && !named.catalogue.plans.includes(tier.plan))
      throw new AppError('forbidden:model', `${named.catalogue.name} is not part of your plan`)
    return named
  }
  const own = models.resolve(input.chatModel, tier.gemini)
  if (input.chatModel !== 'loris') return own
  return models.routeEco(own, {
    text: content,
    image: input.attachment?.kind === 'image' || (!input.attachment && target?.mediaType === 'image'),
    extraChars: input.attachment?.extractedText?.length ?? 0,
    tools: false,
    largerThan: input.larger && input.regenerateOf ? (target?.modelId ?? null) : null,
  })
}

/** The exchange as stored: a new version keeps the turn's file unless the edit brings another. */
function sendRow(
  user: UserRow,
  input: SendInput,
  content: string,
  target: MessageRow | undefined,
  resolved: ResolvedModel,
  now: Date,
): SendRow {
  const media = input.media
  return {
    userId: user.id,
    content,
    clientMessageId: input.clientMessageId,
    origin: input.editOf ? 'edit' : input.regenerateOf ? 'regenerate' : 'sent',
    now,
    mode: input.chatModel,
    chatModel: resolved.chatModel,
    provider: resolved.provider,
    modelId: resolved.modelId,
    mediaUrl: (media ? media.url : target?.mediaUrl) ?? null,
    mediaType: (media ? media.type : target?.mediaType) ?? null,
    uploadId: (media ? media.uploadId : target?.uploadId) ?? null,
    mediaName: (media ? media.name : target?.mediaName) ?? null,
    mediaMime: (media ? media.mimeType : target?.mediaMime) ?? null,
  }
}

/**
 * Stores the send (send-statement.ts), placing it again while its branch moves under it. A version
 * of a turn locks its thread first: the branch changes past its turn.
 */
async function store(
  db: Db,
  user: UserRow,
  place: Placement,
  row: SendRow,
  claim: UsageClaim,
): Promise<SendOutcome> {
  const once = () =>
    place.kind !== 'revise'
      ? startSend(db, place, row, claim)
      : db.transaction(async (tx) => {
          await tx
            .select({ id: threads.id })
            .from(threads)
            .where(and(eq(threads.id, place.threadId), eq(threads.userId, user.id)))
            .for('update')
          return startSend(tx, place, row, claim)
        })
  let outcome = await once()
  for (let i = 1; outcome.kind === 'moved' && i < PLACE_ATTEMPTS; i++) outcome = await once()
  return outcome
}

/** What generating needs of the stored exchange, and the attempt at its reply the send made. */
export type GeneratedRow = Pick<MessageRow, 'id' | 'userId' | 'threadId' | 'content' | 'mediaType'> & {
  attemptId: string
}

/** The reply generated detached from this request, which only subscribes to it. */
function generateAndStream(
  s: ChatServices,
  row: GeneratedRow,
  resolved: ResolvedModel,
  input: SendInput,
  signal: AbortSignal,
  history: HistoryExchange[],
  ctx: PromptContext = NO_CONTEXT,
): Response {
  // A new version keeps the turn's stored file but not its bytes: the model is told it was there.
  const content = input.attachment ? row.content : userText(row)
  const extractedText = input.attachment?.extractedText
  const inputChars = inputCharsOf({ content: row.content, extractedText }) + contextChars(ctx)
  const at = { history, ctx, webSearch: input.webSearch }
  const turn = { content, attachment: input.attachment }
  const gen = s.generations.start(s, replyJob(s, row, inputChars, resolved, turn, at))
  return followGeneration(gen, headOf(row, input.threadId), signal)
}

/**
 * A reply's job: its prompt (the branch's history, the turn, the send's context) and its lookups,
 * run as it starts (generation.ts): links always, a search when asked, the row's text their query.
 */
export function replyJob(
  s: ChatServices,
  row: GeneratedRow,
  inputChars: number,
  resolved: ResolvedModel,
  turn: { content: string; attachment?: PromptAttachment | null },
  { history, ctx, webSearch }: { history: HistoryExchange[]; ctx: PromptContext; webSearch: boolean },
): GenerationJob {
  const { lookup } = s
  const message = row.content
  return {
    messageId: row.id,
    attemptId: row.attemptId,
    userId: row.userId,
    threadId: row.threadId,
    inputChars,
    resolved,
    prompt: buildPrompt(history, turn, resolved.historyBudgetTokens, contextSystemText(ctx)),
    lookup:
      lookup &&
      ((signal) => lookup.prepare({ callsTools: callsTools(resolved), webSearch, message, signal })),
    webSearch,
  }
}

/**
 * What a send the statement did not store is answered: a retry of a send stored before (the
 * duplicate's winner, or a refused retry's original) as that send, else the reason it was not.
 */
async function answerUnstored(
  s: ChatServices,
  user: UserRow,
  input: SendInput,
  signal: AbortSignal,
  outcome: Exclude<SendOutcome, { kind: 'stored' }>,
  claim: UsageClaim,
): Promise<Response> {
  if (outcome.kind === 'no-thread') throw new AppError('not_found:thread', 'This thread does not exist')
  if (outcome.kind === 'moved')
    throw new AppError('conflict:message', 'This conversation just changed; please send again')
  const seen = input.clientMessageId ? await findByClientId(s.db, user.id, input.clientMessageId) : undefined
  if (seen) return resend(s, user, seen, input, signal)
  if (outcome.kind === 'duplicate')
    throw new AppError('conflict:message', 'This message was just sent; please refresh')
  const overBudget = outcome.kind === 'over-budget' ? budgetRefusal(outcome.retryAfter) : undefined
  throw await refusalFor(s.db, user.id, claim, overBudget)
}

/** A send whose clientMessageId was seen before: never a second message. */
async function resend(
  s: ChatServices,
  user: UserRow,
  seen: MessageRow,
  input: SendInput,
  signal: AbortSignal,
): Promise<Response> {
  let row = seen
  const head = headOf(row, input.threadId)
  if (row.status === 'streaming') {
    const gen = s.generations.get(row.id)
    if (gen) return followGeneration(gen, head, signal)
    // Written by another node: follow it while that node holds its lease; once the lease has
    // lapsed the node is gone, so finish the reply now and generate again below.
    const [lost] = await finishLapsed(s.db, { messageId: row.id })
    if (!lost) return followStored(s.db, row, head, signal)
    const now = await findOwnedMessage(s.db, user.id, row.id)
    if (!now) throw new AppError('not_found:message', 'This message was deleted')
    row = now
  }
  if (!generatesAgain(row)) return replayStored(row, head, signal, await countSentMessages(s.db, row.userId))
  // The model never answered, or the node writing the reply died: try again into the same row.
  const unserved = unservedResponse(s, input, signal)
  if (unserved) return unserved
  const ctx = await storedContextOf(s, user, row)
  const admission = await admit(s, user, input, row.content, undefined, ctx)
  const { resolved, claim } = admission
  await spendSendBudget(s.db, user.id, claim.plan)
  const model = { chatModel: resolved.chatModel, provider: resolved.provider, modelId: resolved.modelId }
  const restart = await restartAttempt(s.db, row, model, s.now(), claim)
  if (restart.kind === 'refused') throw await refusalFor(s.db, user.id, claim)
  // Another retry restarted it first: answered as a send of it.
  if (restart.kind === 'taken') return sendMessage(s, user, input, signal)
  const restarted = restart.row
  // Only the exchanges on this one's branch: other versions are not the conversation it follows.
  const history = restarted.threadId ? await loadHistory(s.db, restarted.parentId) : []
  return generateAndStream(s, restarted, resolved, input, signal, history, ctx)
}
