import { Hono } from 'hono'
import { ATTACHMENT_NOTICE_HEADER, encodeNoticeHeader } from '#contract/attachments.ts'
import type { ChatModel } from '#contract/config.ts'
import {
  MESSAGES_PAGE_SIZE,
  messageIdParam,
  messagesQuery,
  type NextModel,
  nextModelQuery,
} from '#contract/messages.ts'
import { replyModelName } from '#contract/model-names.ts'
import { approvalAnswerSchema } from '#contract/tools.ts'
import { ecoEngineFor } from '#server/features/eco-engine/instance.ts'
import { modelsFor } from '#server/features/models/list.ts'
import { createModelRegistry } from '#server/features/models/registry.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { messageFromJsonText } from '#server/lib/message-json.ts'
import { enforceRateLimit } from '#server/lib/rate-limit.ts'
import { readOnSession, readsCheckSession, requireUser } from '#server/lib/session.ts'
import { resetIsDue, tierOf } from '#server/lib/usage.ts'
import { validate } from '#server/lib/validate.ts'
import { answerApproval } from './approval.ts'
import type { GenerationRegistry } from './generation.ts'
import type { ReplyLookup } from './lookup.ts'
import type { PromptContextSource } from './prompt-context.ts'
import { clearHistory, listMessagesPage, type MessagesPage, markStopped, selectVersion } from './queries.ts'
import { type ChatServices, sendMessage } from './send.ts'
import { type AttachmentReader, readSendInput } from './send-input.ts'

/** Version switches a person may make in a minute (POST /api/messages/:id/select). */
export const SELECTS_PER_MINUTE = 60

const pageJson = (page: MessagesPage) => ({
  items: page.entries.map((e) => messageFromJsonText(e.row, e.versionIds)),
  nextCursor: page.nextCursor,
})

export interface ChatRouteOptions {
  /** This node's replies (made in app.ts, whose deletions elsewhere forget their histories). */
  generations: GenerationRegistry
  /** Takes in a file sent with a message (the attachments feature, composed in app.ts). */
  attachments?: AttachmentReader
  /** Runs after the history is cleared (app.ts: forgets kept histories, removes unused files). */
  afterClear?: (userId: string) => Promise<void>
  /** What replies may look up (the tools feature, composed in app.ts). */
  lookup?: ReplyLookup
  /** Instructions and retrieved passages for a send (app.ts composes account, projects, knowledge). */
  context?: PromptContextSource
}

export function chatRoutes(deps: AppDeps, opts: ChatRouteOptions) {
  const { db } = deps.database
  const services: ChatServices = {
    db,
    log: deps.log,
    now: () => deps.now?.() ?? new Date(),
    models: createModelRegistry(deps.env, ecoEngineFor(deps.env, deps.log)),
    generations: opts.generations,
    lookup: opts.lookup,
    context: opts.context,
  }
  const auth = requireUser(deps)
  return new Hono<AppEnv>()
    .get('/messages', readsCheckSession(deps), validate('query', messagesQuery), async (c) => {
      const { threadId, cursor, limit } = c.req.valid('query')
      // Always a page (without limit, the newest MESSAGES_PAGE_SIZE): no request reads a whole
      // thread, however long. It answers null for another user's thread.
      const of = { userId: c.get('user').id, threadId: threadId ?? null }
      const page = await readOnSession(c, deps, (guessedSession) =>
        listMessagesPage(db, { ...of, guessedSession }, { cursor, limit: limit ?? MESSAGES_PAGE_SIZE }),
      )
      if (!page) throw new AppError('not_found:thread', 'This thread does not exist')
      return c.json(pageJson(page), 200)
    })
    .get('/models', auth, (c) => {
      const now = services.now()
      const tier = tierOf(c.get('user'), now)
      return c.json(modelsFor(services.models, tier.plan, tier.gemini), 200)
    })
    .get('/chat/next-model', auth, validate('query', nextModelQuery), (c) => {
      const user = c.get('user')
      const now = services.now()
      // Read only: a due reset is applied by the next send; until then it counts as done.
      const fresh = resetIsDue(user.lastAiUsageReset, now)
        ? { ...user, aiInputChars: 0, aiOutputChars: 0 }
        : user
      const tier = tierOf(fresh, now)
      const { mode } = c.req.valid('query')
      // The client sends in the asked mode when it is served, else in the default mode (Gemini,
      // then the eco model, then ChatGPT: availability.ts defaultChatModel).
      const order: ChatModel[] = [
        mode,
        ...(['gemini', 'loris', 'chatgpt'] as const).filter((m) => m !== mode),
      ]
      const served = order.find((m) => services.models.availability(m).available)
      const resolved = served ? services.models.resolve(served, tier.gemini) : null
      const next: NextModel = {
        available: served !== undefined,
        chatModel: served ?? mode,
        modelId: resolved?.modelId ?? null,
        modelName: served && resolved ? replyModelName(served, resolved.modelId) : null,
        limitExceeded: tier.exceeded,
      }
      return c.json(next, 200)
    })
    .post('/messages/:id/select', auth, validate('param', messageIdParam), async (c) => {
      const user = c.get('user')
      const { id } = c.req.valid('param')
      // A switch in a long thread moves thousands of flags (shown-branch.ts): plenty for a
      // person clicking through versions, not a loop's worth of work (decision 048).
      await enforceRateLimit(db, `select:user:${user.id}`, {
        limit: SELECTS_PER_MINUTE,
        windowSeconds: 60,
        message: (wait) =>
          `You can switch versions ${SELECTS_PER_MINUTE} times a minute. Please try again in ${wait} seconds.`,
      })
      const selected = await selectVersion(deps.database, user.id, id, services.now())
      if (!selected) throw new AppError('not_found:message', 'This message does not exist')
      // The newest page of the branch now shown, as GET /api/messages answers it.
      const page = await listMessagesPage(
        db,
        { userId: user.id, threadId: selected.threadId },
        { limit: MESSAGES_PAGE_SIZE },
      )
      if (!page) throw new AppError('not_found:thread', 'This thread does not exist')
      return c.json(pageJson(page), 200)
    })
    .post('/messages', auth, async (c) => {
      const input = await readSendInput(c, opts.attachments)
      try {
        const res = await sendMessage(services, c.get('user'), input, c.req.raw.signal)
        if (input.notice) res.headers.set(ATTACHMENT_NOTICE_HEADER, encodeNoticeHeader(input.notice))
        return res
      } finally {
        // The message is stored (or refused) by now: a file it did not keep is dropped.
        await input.settle?.()
      }
    })
    .delete('/messages', auth, async (c) => {
      const streaming = await clearHistory(db, c.get('user').id)
      // Replies running here stop now; elsewhere they stop at their next save (row gone).
      for (const id of streaming) services.generations.stop(id)
      await opts.afterClear?.(c.get('user').id)
      return c.json({ ok: true as const }, 200)
    })
    .post(
      '/messages/:id/approval',
      auth,
      validate('param', messageIdParam),
      validate('json', approvalAnswerSchema),
      async (c) => {
        const { approved } = c.req.valid('json')
        const message = await answerApproval(services, c.get('user'), c.req.valid('param').id, approved)
        return c.json(message, 200)
      },
    )
    .post('/messages/:id/stop', auth, validate('param', messageIdParam), async (c) => {
      const user = c.get('user')
      const { id } = c.req.valid('param')
      // The DB flag reaches the node running it (checked at each save); a local one stops at once.
      const row = await markStopped(db, user.id, id)
      if (!row) throw new AppError('not_found:message', 'This message does not exist')
      services.generations.stop(id)
      return c.json({ id: row.id, status: row.status }, 200)
    })
}
