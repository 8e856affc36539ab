import { Hono } from 'hono'
import {
  createFromMessageBody,
  favoriteThreadBody,
  renameThreadBody,
  THREADS_PAGE_SIZE,
  threadIdParam,
  threadsQuery,
} from '#contract/threads.ts'
import { findOwnedThread } from '#server/db/owned-thread.ts'
import { AppError } from '#server/lib/app-error.ts'
import { jsonText } from '#server/lib/compression.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { readOnSession, readsCheckSession, readUser, requireUser } from '#server/lib/session.ts'
import { validate } from '#server/lib/validate.ts'
import {
  createThreadFromMessage,
  deleteThread,
  listThreads,
  listThreadsPageJson,
  updateThread,
} from './queries.ts'
import { toThreadJson } from './thread-json.ts'

type Action = 'favorited' | 'renamed' | 'deleted'

export function threadsRoutes(deps: AppDeps, opts: { afterDelete?: (userId: string) => Promise<void> } = {}) {
  const { db } = deps.database
  const auth = requireUser(deps)

  /** The user's thread, 404 when it is not theirs; 403 when it is Default (spec section 5). */
  async function editable(userId: string, id: string, action: Action) {
    const thread = await findOwnedThread(db, userId, id)
    if (!thread) throw new AppError('not_found:thread', 'This thread does not exist')
    if (thread.isDefault)
      throw new AppError('forbidden:default_thread', `The Default thread cannot be ${action}`)
  }

  async function update(
    userId: string,
    id: string,
    action: Action,
    set: { isFavorite?: boolean; title?: string },
  ) {
    await editable(userId, id, action)
    const row = await updateThread(db, userId, id, set)
    if (!row) throw new AppError('not_found:thread', 'This thread does not exist')
    return toThreadJson(row)
  }

  return new Hono<AppEnv>()
    .get('/threads', readsCheckSession(deps), validate('query', threadsQuery), async (c) => {
      const { cursor, limit } = c.req.valid('query')
      // Without limit or cursor, the whole list as before (clients that predate pages).
      if (cursor === undefined && limit === undefined) {
        const user = await readUser(c, deps)
        const rows = await listThreads(db, user.id)
        return c.json(rows.map(toThreadJson), 200)
      }
      // One statement, which also checks a guessed session (decision 036).
      const page = await readOnSession(c, deps, (guessed) =>
        listThreadsPageJson(db, c.get('user').id, { cursor, limit: limit ?? THREADS_PAGE_SIZE }, guessed),
      )
      return jsonText(c, page)
    })
    .put(
      '/threads/:id/favorite',
      auth,
      validate('param', threadIdParam),
      validate('json', favoriteThreadBody),
      async (c) => {
        const { isFavorite } = c.req.valid('json')
        return c.json(
          await update(c.get('user').id, c.req.valid('param').id, 'favorited', { isFavorite }),
          200,
        )
      },
    )
    .put(
      '/threads/:id/rename',
      auth,
      validate('param', threadIdParam),
      validate('json', renameThreadBody),
      async (c) => {
        const { title } = c.req.valid('json')
        return c.json(await update(c.get('user').id, c.req.valid('param').id, 'renamed', { title }), 200)
      },
    )
    .delete('/threads/:id', auth, validate('param', threadIdParam), async (c) => {
      const userId = c.get('user').id
      const { id } = c.req.valid('param')
      await editable(userId, id, 'deleted')
      if (!(await deleteThread(db, userId, id)))
        throw new AppError('not_found:thread', 'This thread does not exist')
      // Files only this thread's messages used go with it (composed in app.ts).
      await opts.afterDelete?.(userId)
      return c.json({ ok: true as const, id }, 200)
    })
    .post('/threads/create-from-message', auth, validate('json', createFromMessageBody), async (c) => {
      const { messageId } = c.req.valid('json')
      const thread = await createThreadFromMessage(
        db,
        c.get('user').id,
        messageId,
        deps.now?.() ?? new Date(),
      )
      if (!thread) throw new AppError('not_found:message', 'This message does not exist')
      return c.json(toThreadJson(thread), 201)
    })
}
