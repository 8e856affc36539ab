// POST /api/messages as a service: checks, stores the prompt, starts the detached generation and
// answers with a stream that only subscribes to it. Persist before you stream (conventions 4).

import { and, eq } from 'drizzle-orm'
import { chatErrorCodes } from '#contract/chat-events.ts'
import { threadTitleFrom } from '#contract/threads.ts'
import type { Db } from '#server/db/client.ts'
import { threads } from '#server/db/schema/index.ts'
import type { ModelRegistry, ResolvedModel } from '#server/features/models/registry.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { UserRow } from '#server/lib/context.ts'
import { type GuessedSession, Unconfirmed } from '#server/lib/session.ts'
import {
  budgetRefusal,
  MAX_GENERATING_PER_USER,
  refusalFor,
  spendSendBudget,
  type UsageClaim,
} from './admission.ts'
import { countSentMessages } from './finalize.ts'
import type { GenerationDeps, GenerationRegistry } from './generation.ts'
import { buildPrompt, type HistoryExchange, userText } from './history.ts'
import { finishLapsed } from './lease.ts'
import {
  findByClientId,
  findOwnedMessage,
  generatesAgain,
  loadHistory,
  type MessageRow,
  resetUsageIfDue,
  restartAttempt,
} from './queries.ts'
import type { SendInput } from './send-input.ts'
import {
  type Placement,
  type SendOutcome,
  type SendRow,
  type SessionCheck,
  startSend,
  violates,
} from './send-statement.ts'
import { sseResponse } from './sse.ts'
import { followGeneration, followStored, headOf, replayStored } from './stream.ts'
import { inputCharsOf, limitMessage, resetIsDue, secondsUntilReset, type Tier, tierOf } from './usage.ts'

export interface ChatServices extends GenerationDeps {
  models: ModelRegistry
  generations: GenerationRegistry
}

/**
 * Refuses with 429 when the usage limit is reached (nothing stored); else the model to use and
 * the claim the store transaction makes on the user's usage (admission.ts), which decides for
 * good: this early check only spares a refused send the work before it.
 */
async function checkUsageAndResolve(
  s: ChatServices,
  user: UserRow,
  input: SendInput,
  /** The text the model is sent: a regeneration's is the revised exchange's, not the request's. */
  content: string,
): Promise<{ resolved: ResolvedModel; claim: UsageClaim; tier: Tier }> {
  const now = s.now()
  const current = await resetUsageIfDue(s.db, user, now, resetIsDue(user.lastAiUsageReset, now))
  const tier = tierOf(current, now)
  // 429 rather than 402: the limit lifts with time (Retry-After), and paying does not lift the
  // premium one. The client must not retry `rate_limited:usage`.
  const refusal = () =>
    new AppError('rate_limited:usage', limitMessage(tier.plan, current.lastAiUsageReset), {
      headers: { 'Retry-After': String(secondsUntilReset(current.lastAiUsageReset, now)) },
    })
  if (tier.exceeded) throw refusal()
  const chars = inputCharsOf({ content, extractedText: input.attachment?.extractedText })
  return {
    resolved: s.models.resolve(input.chatModel, tier.gemini),
    claim: { chars, limit: tier.limit, refusal },
    tier,
  }
}

/** What generate needs of the stored exchange, and the attempt at its reply the send made. */
type GeneratedRow = Pick<MessageRow, 'id' | 'userId' | 'threadId' | 'parentId' | 'content' | 'mediaType'> & {
  attemptId: string
}

/** What the model is sent for the turn `row` after `history`. */
function promptOf(
  row: Pick<MessageRow, 'content' | 'mediaType'>,
  input: SendInput,
  resolved: ResolvedModel,
  history: HistoryExchange[],
) {
  // A new version keeps the turn's stored file but not its bytes: the model is told it was there.
  const content = input.attachment ? row.content : userText(row)
  return buildPrompt(history, { content, attachment: input.attachment }, resolved.historyBudgetTokens)
}

function generate(
  s: ChatServices,
  row: GeneratedRow,
  resolved: ResolvedModel,
  input: SendInput,
  signal: AbortSignal,
  history: HistoryExchange[],
) {
  const gen = s.generations.start(s, {
    messageId: row.id,
    attemptId: row.attemptId,
    userId: row.userId,
    threadId: row.threadId,
    inputChars: inputCharsOf({ content: row.content, extractedText: input.attachment?.extractedText }),
    resolved,
    prompt: promptOf(row, input, resolved, history),
  })
  return followGeneration(gen, headOf(row, input.threadId), signal)
}

/** A mode without a provider answers one error event naming the variable to set; nothing is stored. */
function unconfiguredResponse(s: ChatServices, input: SendInput, signal: AbortSignal): Response | null {
  const availability = s.models.availability(input.chatModel)
  if (availability.available) return null
  const error = availability.reason ?? 'This chat mode is not available'
  return sseResponse(signal, (sink) => {
    sink.send({ error, code: chatErrorCodes.unconfigured, status: 'failed' })
    sink.close()
    return undefined
  })
}

/** A send whose clientMessageId was seen before: never a second message. */
async function resend(
  s: ChatServices,
  user: UserRow,
  seen: MessageRow,
  input: SendInput,
  signal: AbortSignal,
) {
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
  const unconfigured = unconfiguredResponse(s, input, signal)
  if (unconfigured) return unconfigured
  const { resolved, claim } = await checkUsageAndResolve(s, user, input, row.content)
  await spendSendBudget(s.db, user.id)
  const model = { chatModel: resolved.chatModel, provider: resolved.provider, modelId: resolved.modelId }
  const restarted = await restartAttempt(s.db, row, model, s.now(), claim)
  if (!restarted) return sendMessage(s, user, input, signal)
  // Only the exchanges on this one's branch: other versions are not the conversation it follows.
  const history = restarted.threadId ? await loadHistory(s.db, restarted.parentId) : []
  return generate(s, restarted, resolved, input, signal, history)
}

/** Attempts of a send whose branch moved under it (another send or a switch in the thread). */
const PLACE_ATTEMPTS = 5

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
  if (!input.threadId)
    // A file sent alone names its thread.
    return {
      place: {
        kind: 'new-thread',
        title: threadTitleFrom(input.content || input.attachment?.filename || ''),
      },
    }
  return { place: { kind: 'follow', threadId: input.threadId } }
}

/** One attempt: a version of a turn locks its thread first (the branch changes past its turn). */
function attempt(
  db: Db,
  user: UserRow,
  place: Placement,
  row: SendRow,
  claim: UsageClaim,
  check: SessionCheck | undefined,
) {
  const reservation = { chars: claim.chars, limit: claim.limit, maxGenerating: MAX_GENERATING_PER_USER }
  if (place.kind !== 'revise') return startSend(db, place, row, reservation, check)
  return db.transaction(async (tx) => {
    await tx
      .select({ id: threads.id })
      .from(threads)
      .where(and(eq(threads.id, place.threadId), eq(threads.userId, user.id)))
      .for('update')
    return startSend(tx, place, row, reservation, check)
  })
}

/** The earlier send a retry names, if any: a retry is answered as that send, never stored twice. */
async function seenBefore(db: Db, user: UserRow, input: SendInput) {
  return input.clientMessageId ? findByClientId(db, user.id, input.clientMessageId) : undefined
}

/**
 * Stores the send and starts its reply. With `guessedSession` (a session this node read before,
 * `user` its row then, and the clock `readOnSession` took) only the statement that stores the send
 * confirms the session, at that clock as the pages do: any other way out throws before writing
 * anything, and an answer other than the reply is given by the route after it reads the session.
 */
export async function sendMessage(
  s: ChatServices,
  user: UserRow,
  input: SendInput,
  signal: AbortSignal,
  guessedSession?: GuessedSession | null,
): Promise<Response> {
  const db: Db = s.db
  const unconfigured = unconfiguredResponse(s, input, signal)
  if (unconfigured) {
    if (guessedSession) throw new Unconfirmed()
    return unconfigured
  }
  // A due reset is written from the user's row: the row must be read first.
  if (guessedSession && resetIsDue(user.lastAiUsageReset, s.now())) throw new Unconfirmed()
  const { place, target } = await placeOf(db, user, input)
  // A regeneration answers the revised exchange's text again; an edit brings its own.
  const content = input.regenerateOf && target ? target.content : input.content
  // A send over the usage limit hears that first (it does not lift in a minute). Edits and
  // regenerations are sends: admitted, reserved and budgeted the same way.
  let checked: Awaited<ReturnType<typeof checkUsageAndResolve>>
  try {
    checked = await checkUsageAndResolve(s, user, input, content)
  } catch (err) {
    // Decided on the row as this node saw it last: decided again on the row read now.
    if (guessedSession) throw new Unconfirmed()
    const seen = await seenBefore(db, user, input)
    if (seen) return resend(s, user, seen, input, signal)
    throw err
  }
  const { resolved, claim, tier } = checked
  const check: SessionCheck | undefined = guessedSession
    ? {
        sessionId: guessedSession.id,
        premium: tier.plan === 'premium',
        proBelow: tier.proBelow,
        belowPro: tier.gemini === 'pro',
      }
    : undefined
  const row: SendRow = {
    userId: user.id,
    content,
    clientMessageId: input.clientMessageId,
    origin: input.editOf ? 'edit' : input.regenerateOf ? 'regenerate' : 'sent',
    now: guessedSession?.now ?? s.now(),
    chatModel: resolved.chatModel,
    provider: resolved.provider,
    modelId: resolved.modelId,
    // A new version keeps the turn's file unless the edit brings another.
    mediaUrl: (input.media ? input.media.url : target?.mediaUrl) ?? null,
    mediaType: (input.media ? input.media.type : target?.mediaType) ?? null,
    uploadId: (input.media ? input.media.uploadId : target?.uploadId) ?? null,
    mediaName: (input.media ? input.media.name : target?.mediaName) ?? null,
    mediaMime: (input.media ? input.media.mimeType : target?.mediaMime) ?? null,
  }
  for (let i = 1; ; i++) {
    let outcome: SendOutcome
    try {
      outcome = await attempt(db, user, place, row, claim, check)
    } catch (err) {
      // The clientMessageId was used before: answer as a retry of that send (nothing was stored).
      if (violates(err, 'messages_client_id_idx')) {
        const winner = await seenBefore(db, user, input)
        if (!winner) throw new AppError('conflict:message', 'This message was just sent; please refresh')
        return resend(s, user, winner, input, signal)
      }
      // Another send took the place after the same leaf first: follow it instead.
      if (!violates(err, 'messages_shown_idx')) throw err
      outcome = { kind: 'moved' }
    }
    if (outcome.kind === 'stored') return generate(s, outcome.row, resolved, input, signal, outcome.history)
    if (outcome.kind === 'unsigned') throw new Unconfirmed()
    if (outcome.kind === 'no-thread') throw new AppError('not_found:thread', 'This thread does not exist')
    if (outcome.kind === 'moved') {
      if (i < PLACE_ATTEMPTS) continue
      throw new AppError('conflict:message', 'This conversation just changed; please send again')
    }
    // Refused: a retry of a send stored before is answered as that send, not refused.
    const seen = await seenBefore(db, user, input)
    if (seen) return resend(s, user, seen, input, signal)
    if (outcome.kind === 'over-budget') throw budgetRefusal(outcome.retryAfter)
    throw await refusalFor(db, user.id, claim)
  }
}
