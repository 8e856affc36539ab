import type { MiddlewareHandler } from 'hono'
import { Hono } from 'hono'
import { uploadIdParam } from '#contract/uploads.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { requireUser } from '#server/lib/session.ts'
import type { ObjectStorage } from '#server/lib/storage.ts'
import { validate } from '#server/lib/validate.ts'
import { findOwnedUpload } from './queries.ts'

// Shown inline: raster images only. SVG can carry script, documents are opened by other programs:
// both download instead of rendering on our origin.
const INLINE = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp'])

function disposition(type: 'inline' | 'attachment', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}

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
      const bytes = row ? await storage.get(row.storageKey) : null
      if (!row || !bytes) throw new AppError('not_found:upload', 'This file does not exist')
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': row.mimeType,
        'Content-Length': String(bytes.length),
        'Content-Disposition': disposition(INLINE.has(row.mimeType) ? 'inline' : 'attachment', row.fileName),
        'X-Content-Type-Options': 'nosniff',
        // An id always names the same bytes; only its owner may see them.
        'Cache-Control': 'private, max-age=31536000, immutable',
      })
    },
  )
}
