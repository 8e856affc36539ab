import { Hono } from 'hono'
import { ATTACHMENT_NOTICE_HEADER, encodeNoticeHeader } from '#contract/attachments.ts'
import { MESSAGES_PAGE_SIZE, messageIdParam, messagesQuery } from '#contract/messages.ts'
import { ecoEngineFor } from '#server/features/eco-engine/instance.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { requireUser } from '#server/lib/session.ts'
import { validate } from '#server/lib/validate.ts'
import { GenerationRegistry } from './generation.ts'
import { toMessageJson } from './message-json.ts'
import { createProviderRegistry } from './providers/registry.ts'
import {
  clearHistory,
  findDefaultThread,
  findOwnedMessage,
  findOwnedThread,
  listMessages,
  listMessagesPage,
  markStopped,
} from './queries.ts'
import { type ChatServices, sendMessage } from './send.ts'
import { type AttachmentReader, readSendInput } from './send-input.ts'

export interface ChatRouteOptions {
  generations?: GenerationRegistry
  /** Takes in a file sent with a message (the attachments feature, composed in app.ts). */
  attachments?: AttachmentReader
  /** Runs after the history is cleared (removes files no message uses any more). */
  afterClear?: (userId: string) => Promise<void>
}

export function chatRoutes(deps: AppDeps, opts: ChatRouteOptions = {}) {
  const { db } = deps.database
  const services: ChatServices = {
    db,
    log: deps.log,
    now: () => deps.now?.() ?? new Date(),
    providers: createProviderRegistry(deps.env, ecoEngineFor(deps.env, deps.log)),
    generations: opts.generations ?? new GenerationRegistry(deps.background),
  }
  const auth = requireUser(deps)

  return new Hono<AppEnv>()
    .get('/messages', auth, validate('query', messagesQuery), async (c) => {
      const user = c.get('user')
      const { threadId, cursor, limit } = c.req.valid('query')
      const thread = threadId
        ? await findOwnedThread(db, user.id, threadId)
        : await findDefaultThread(db, user.id)
      if (!thread) throw new AppError('not_found:thread', 'This thread does not exist')
      // Without limit or cursor, the whole thread as before (clients that predate pages).
      if (cursor === undefined && limit === undefined) {
        const rows = await listMessages(db, user.id, thread)
        return c.json(rows.map(toMessageJson), 200)
      }
      const page = await listMessagesPage(db, user.id, thread, { cursor, limit: limit ?? MESSAGES_PAGE_SIZE })
      return c.json({ items: page.rows.map(toMessageJson), nextCursor: page.nextCursor }, 200)
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
    .post('/messages/:id/stop', auth, validate('param', messageIdParam), async (c) => {
      const user = c.get('user')
      const { id } = c.req.valid('param')
      if (!(await findOwnedMessage(db, user.id, id)))
        throw new AppError('not_found:message', 'This message does not exist')
      // The DB flag reaches the node running it (checked at each save); a local one stops at once.
      const row = await markStopped(db, user.id, id)
      services.generations.stop(id)
      if (!row) throw new AppError('not_found:message', 'This message does not exist')
      return c.json({ id: row.id, status: row.status }, 200)
    })
}
