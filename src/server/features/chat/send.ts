// POST /api/messages as a service: checks, stores the prompt, starts the detached generation and
// answers with a stream that only subscribes to it. Persist before you stream (conventions 4).
import { chatErrorCodes } from '#contract/chat-events.ts'
import { threadTitleFrom } from '#contract/threads.ts'
import type { Db } from '#server/db/client.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { UserRow } from '#server/lib/context.ts'
import { spendSendBudget, type UsageClaim } from './admission.ts'
import { countSentMessages } from './finalize.ts'
import type { GenerationDeps, GenerationRegistry } from './generation.ts'
import { buildPrompt, userText } from './history.ts'
import { finishLapsed } from './lease.ts'
import type { ProviderRegistry, ResolvedModel } from './providers/registry.ts'
import {
  activeLeafId,
  findByClientId,
  findDefaultThread,
  findOwnedMessage,
  findOwnedThread,
  generatesAgain,
  loadHistory,
  type MessageRow,
  resetUsageIfDue,
  restartAttempt,
  storeUserMessage,
} from './queries.ts'
import type { SendInput } from './send-input.ts'
import { sseResponse } from './sse.ts'
import { followGeneration, followStored, headOf, replayStored } from './stream.ts'
import { inputCharsOf, limitMessage, resetIsDue, secondsUntilReset, tierOf } from './usage.ts'

export interface ChatServices extends GenerationDeps {
  providers: ProviderRegistry
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
): Promise<{ resolved: ResolvedModel; claim: UsageClaim }> {
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
    resolved: s.providers.resolve(input.chatModel, tier.gemini),
    claim: { chars, limit: tier.limit, refusal },
  }
}

async function generate(
  s: ChatServices,
  row: MessageRow,
  resolved: ResolvedModel,
  input: SendInput,
  signal: AbortSignal,
) {
  // Only the exchanges on this one's branch: other versions are not the conversation it follows.
  const history = row.threadId ? await loadHistory(s.db, row.threadId, row.parentId) : []
  // A new version keeps the turn's stored file but not its bytes: the model is told it was there.
  const content = input.attachment ? row.content : userText(row)
  const prompt = buildPrompt(history, { content, attachment: input.attachment }, resolved.historyBudgetTokens)
  const gen = s.generations.start(s, {
    messageId: row.id,
    userId: row.userId,
    threadId: row.threadId,
    resolved,
    prompt,
    inputChars: inputCharsOf({ content: row.content, extractedText: input.attachment?.extractedText }),
  })
  return followGeneration(gen, headOf(row, input.threadId), signal)
}

/** A mode without a provider answers one error event naming the variable to set; nothing is stored. */
function unconfiguredResponse(s: ChatServices, input: SendInput, signal: AbortSignal): Response | null {
  const availability = s.providers.availability(input.chatModel)
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
  return generate(s, restarted, resolved, input, signal)
}

/**
 * Where a send goes: its thread and the exchange it follows. A plain send follows the branch the
 * thread shows; an edit or a regeneration becomes a sibling of the exchange it revises.
 */
async function placeOf(db: Db, user: UserRow, input: SendInput) {
  const revisedId = input.editOf ?? input.regenerateOf
  if (revisedId) {
    const target = await findOwnedMessage(db, user.id, revisedId)
    if (!target) throw new AppError('not_found:message', 'This message does not exist')
    // A message kept from before threads lives in Default.
    const threadId = target.threadId ?? (await findDefaultThread(db, user.id))?.id ?? null
    if (!threadId) throw new AppError('not_found:thread', 'This thread does not exist')
    return { threadId, parentId: target.parentId, target }
  }
  if (!input.threadId) return { threadId: null, parentId: null, target: undefined }
  const thread = await findOwnedThread(db, user.id, input.threadId)
  if (!thread) throw new AppError('not_found:thread', 'This thread does not exist')
  return { threadId: thread.id, parentId: await activeLeafId(db, user.id, thread), target: undefined }
}

export async function sendMessage(
  s: ChatServices,
  user: UserRow,
  input: SendInput,
  signal: AbortSignal,
): Promise<Response> {
  const db: Db = s.db
  if (input.clientMessageId) {
    const seen = await findByClientId(db, user.id, input.clientMessageId)
    if (seen) return resend(s, user, seen, input, signal)
  }
  const unconfigured = unconfiguredResponse(s, input, signal)
  if (unconfigured) return unconfigured
  const place = await placeOf(db, user, input)
  const { target } = place
  // A regeneration answers the revised exchange's text again; an edit brings its own.
  const content = input.regenerateOf && target ? target.content : input.content
  // A send over the usage limit hears that first (it does not lift in a minute). Edits and
  // regenerations are sends: admitted, reserved and budgeted the same way.
  const { resolved, claim } = await checkUsageAndResolve(s, user, input, content)
  await spendSendBudget(db, user.id)
  const stored = await storeUserMessage(
    db,
    {
      userId: user.id,
      threadId: place.threadId,
      // A file sent alone names its thread.
      title: threadTitleFrom(input.content || input.attachment?.filename || ''),
      content,
      clientMessageId: input.clientMessageId,
      parentId: place.parentId,
      origin: input.editOf ? 'edit' : input.regenerateOf ? 'regenerate' : 'sent',
      now: s.now(),
      chatModel: resolved.chatModel,
      provider: resolved.provider,
      modelId: resolved.modelId,
      // A new version keeps the turn's file unless the edit brings another.
      mediaUrl: input.media ? input.media.url : target?.mediaUrl,
      mediaType: input.media ? input.media.type : target?.mediaType,
      uploadId: input.media ? input.media.uploadId : target?.uploadId,
      mediaName: input.media ? input.media.name : target?.mediaName,
      mediaMime: input.media ? input.media.mimeType : target?.mediaMime,
    },
    claim,
  )
  if (!stored) {
    // Lost a race with the same clientMessageId: answer as a retry of the winner.
    const winner = input.clientMessageId
      ? await findByClientId(db, user.id, input.clientMessageId)
      : undefined
    if (!winner) throw new AppError('conflict:message', 'This message was just sent; please refresh')
    return resend(s, user, winner, input, signal)
  }
  return generate(s, stored.row, resolved, input, signal)
}
