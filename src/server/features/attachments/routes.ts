import type { MiddlewareHandler } from 'hono'
import { Hono } from 'hono'
import { uploadIdParam } from '#contract/uploads.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { requireUser } from '#server/lib/session.ts'
import type { ObjectStorage } from '#server/lib/storage.ts'
import { storedFileResponse } from '#server/lib/stored-file.ts'
import { validate } from '#server/lib/validate.ts'
import { findOwnedUpload } from './queries.ts'

/**
 * A served file must never run as a page of ours, even opened directly: it gets a sandbox CSP of
 * its own. Mounted in app.ts outside the app-wide security headers, which would replace it.
 */
export const sandboxUploads: MiddlewareHandler = async (c, next) => {
  await next()
  c.res.headers.set(
    'Content-Security-Policy',
    "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'",
  )
  c.res.headers.set('X-Content-Type-Options', 'nosniff')
}

export function attachmentsRoutes(deps: AppDeps, storage: ObjectStorage) {
  const { db } = deps.database
  return new Hono<AppEnv>().get(
    '/uploads/:id',
    requireUser(deps),
    validate('param', uploadIdParam),
    async (c) => {
      const { id } = c.req.valid('param')
      // Someone else's file answers exactly like a missing one.
      const row = await findOwnedUpload(db, c.get('user').id, id)
      const file =
        row &&
        (await storedFileResponse(storage, row, {
          // An id always names the same bytes; only its owner may see them.
          'Cache-Control': 'private, max-age=31536000, immutable',
        }))
      if (!file) throw new AppError('not_found:upload', 'This file does not exist')
      return file
    },
  )
}
