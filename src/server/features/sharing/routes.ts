import { Hono } from 'hono'
import { createShareBody, type ShareLink, sharePath, shareTokenParam } from '#contract/sharing.ts'
import { threadIdParam } from '#contract/threads.ts'
import { uploadIdParam } from '#contract/uploads.ts'
import { publicOrigin } from '#server/env.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { requireUser } from '#server/lib/session.ts'
import type { ObjectStorage } from '#server/lib/storage.ts'
import { storedFileResponse } from '#server/lib/stored-file.ts'
import { validate } from '#server/lib/validate.ts'
import {
  copyShareToThread,
  deleteShare,
  findOwnedThread,
  findShare,
  findSharedConversation,
  findSharedUpload,
  findShareHead,
  findShareOfFile,
  insertShare,
  listShares,
  snapshotOf,
} from './queries.ts'
import { sharedConversationJson, snapshotJson } from './snapshot.ts'

const GONE = 'This shared link does not exist or was revoked'

export function sharingRoutes(deps: AppDeps, opts: { storage: ObjectStorage }) {
  const { db } = deps.database
  const auth = requireUser(deps)
  const urlOf = (token: string) => `${publicOrigin(deps.env)}${sharePath(token)}`

  const gone = () => new AppError('not_found:share', GONE)

  return (
    new Hono<AppEnv>()
      .post(
        '/threads/:id/share',
        auth,
        validate('param', threadIdParam),
        validate('json', createShareBody),
        async (c) => {
          const userId = c.get('user').id
          const thread = await findOwnedThread(db, userId, c.req.valid('param').id)
          if (!thread) throw new AppError('not_found:thread', 'This thread does not exist')
          const snapshot = await snapshotOf(db, userId, thread)
          if (snapshot.length === 0)
            throw new AppError('unprocessable:empty_thread', 'There is nothing to share in this thread yet')
          const share = await insertShare(db, {
            userId,
            thread,
            // Capped here, so every later read of the link is bounded (snapshot.ts).
            snapshotJson: snapshotJson(snapshot),
            allowIndexing: c.req.valid('json').allowIndexing,
          })
          return c.json({ url: urlOf(share.token), token: share.token }, 201)
        },
      )
      .get('/shares', auth, async (c) => {
        const rows = await listShares(db, c.get('user').id)
        const body: ShareLink[] = rows.map((r) => ({
          ...r,
          url: urlOf(r.token),
          createdAt: r.createdAt.toISOString(),
        }))
        return c.json(body, 200)
      })
      .delete('/shares/:token', auth, validate('param', shareTokenParam), async (c) => {
        const { token } = c.req.valid('param')
        if (!(await deleteShare(db, c.get('user').id, token))) throw new AppError('not_found:share', GONE)
        return c.json({ ok: true as const }, 200)
      })
      // Public: anyone with the link reads the snapshot, as the JSON text the database writes
      // (SharedConversation): it was checked when the link was made, and is not parsed again.
      .get('/shares/:token', validate('param', shareTokenParam), async (c) => {
        const { token } = c.req.valid('param')
        const share = await findSharedConversation(db, token)
        if (!share) throw gone()
        const meta = {
          title: share.title,
          sharedAt: share.createdAt.toISOString(),
          allowIndexing: share.allowIndexing,
        }
        c.header('Cache-Control', 'no-store')
        if (!share.allowIndexing) c.header('X-Robots-Tag', 'noindex')
        return c.body(sharedConversationJson(meta, share.exchangesJson), 200, {
          'Content-Type': 'application/json',
        })
      })
      // A file of the snapshot, only through its token: any other upload id answers 404.
      .get(
        '/shares/:token/files/:id',
        validate('param', shareTokenParam.extend(uploadIdParam.shape)),
        async (c) => {
          const { token, id } = c.req.valid('param')
          const share = await findShareOfFile(db, token, id)
          if (!share) throw gone()
          const row = share.holdsFile ? await findSharedUpload(db, share.ownerId, id) : undefined
          const file =
            row &&
            (await storedFileResponse(opts.storage, row, {
              // Revoking must take effect at once: nothing may keep a copy.
              'Cache-Control': 'no-store',
              'X-Robots-Tag': 'noindex',
            }))
          if (!file) throw new AppError('not_found:upload', 'This file does not exist')
          return file
        },
      )
      .post('/shares/:token/continue', auth, validate('param', shareTokenParam), async (c) => {
        // Signed in only: a copy needs every exchange, so this one read parses the snapshot.
        const share = await findShare(db, c.req.valid('param').token)
        if (!share) throw gone()
        const now = deps.now?.() ?? new Date()
        const thread = await copyShareToThread(db, c.get('user').id, share, now, (key) =>
          opts.storage.keep(key),
        )
        return c.json(
          {
            id: thread.id,
            title: thread.title,
            isFavorite: thread.isFavorite,
            isDefault: thread.isDefault,
            lastMessageAt: thread.lastMessageAt.toISOString(),
            chatModel: thread.chatModel,
            createdAt: thread.createdAt.toISOString(),
          },
          201,
        )
      })
  )
}

/** Head tags for the server-rendered /share/:token shell (Open Graph card, robots). */
export function shareHeadFor(deps: AppDeps) {
  return async (token: string) => {
    if (!shareTokenParam.safeParse({ token }).success) return null
    const share = await findShareHead(deps.database.db, token)
    if (!share) return null
    const description = share.opening.replace(/\s+/g, ' ').trim().slice(0, 200)
    return {
      title: `${share.title} | Shared on Loris`,
      description: description || 'A conversation shared from Loris',
      url: `${publicOrigin(deps.env)}${sharePath(token)}`,
      noindex: !share.allowIndexing,
    }
  }
}
