import { strToU8 } from 'fflate'
import { Hono } from 'hono'
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportManifest, exportFormatQuery } from '#contract/export.ts'
import { threadIdParam } from '#contract/threads.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { enforceRateLimit } from '#server/lib/rate-limit.ts'
import { requireUser } from '#server/lib/session.ts'
import type { ObjectStorage } from '#server/lib/storage.ts'
import { validate } from '#server/lib/validate.ts'
import { filePath, slug, toExportedAccount, toExportedThread, toMarkdown } from './format.ts'
import { findOwnedThread, findUser, messagesOf, threadsOf } from './queries.ts'
import { threadExportStream } from './thread-stream.ts'
import { type ZipEntry, zipStream } from './zip-stream.ts'

export const EXPORTS_PER_HOUR = 10
/** Single-thread exports (JSON or Markdown) a person may download in an hour. */
export const THREAD_EXPORTS_PER_HOUR = 30

// Already compressed: deflating them again costs CPU for nothing.
const COMPRESSED = /^(image\/(jpeg|png|gif|webp)|application\/(pdf|zip|vnd\.openxmlformats)|audio\/)/

const attachment = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`

const json = (v: unknown) => strToU8(`${JSON.stringify(v, null, 2)}\n`)

export function exportRoutes(deps: AppDeps, opts: { storage: ObjectStorage }) {
  const { db } = deps.database
  const auth = requireUser(deps)
  const now = () => deps.now?.() ?? new Date()

  /** Every entry of a person's data export, read from the database one thread at a time. */
  async function* entries(userId: string): AsyncGenerator<ZipEntry> {
    const user = await findUser(db, userId)
    if (!user) return
    const at = now()
    yield { name: 'account.json', data: json(toExportedAccount(user)), deflate: true }
    const manifest: ExportManifest = {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exportedAt: at.toISOString(),
      threads: [],
    }
    const written = new Set<string>()
    const threads = await threadsOf(db, userId)
    for (const [i, thread] of threads.entries()) {
      const rows = await messagesOf(db, userId, thread)
      const exported = toExportedThread(thread, rows, at, { withFilePaths: true })
      const base = `threads/${String(i + 1).padStart(4, '0')}-${slug(thread.title)}`
      yield { name: `${base}.json`, data: json(exported), deflate: true }
      yield { name: `${base}.md`, data: strToU8(toMarkdown(exported)), deflate: true }
      manifest.threads.push({ json: `${base}.json`, markdown: `${base}.md`, title: thread.title })
      for (const m of rows) {
        if (!m.upload || written.has(m.upload.id)) continue
        written.add(m.upload.id)
        // Read from storage as the zip is pulled: one chunk of the file in memory at a time.
        const stored = await opts.storage.open(m.upload.storageKey)
        if (stored)
          yield {
            name: filePath(m.upload),
            stream: stored.body,
            deflate: !COMPRESSED.test(m.upload.mimeType),
          }
      }
    }
    yield { name: 'manifest.json', data: json(manifest), deflate: true }
  }

  return new Hono<AppEnv>()
    .get('/export', auth, async (c) => {
      const user = c.get('user')
      // A whole account read and compressed: plenty for a person, not a loop's worth of work.
      await enforceRateLimit(db, `export:user:${user.id}`, {
        limit: EXPORTS_PER_HOUR,
        windowSeconds: 60 * 60,
        message: (wait) =>
          `You can download your data ${EXPORTS_PER_HOUR} times an hour. Please try again in ${Math.ceil(wait / 60)} minutes.`,
      })
      c.get('log').info({ userId: user.id }, 'data export started')
      const day = now().toISOString().slice(0, 10)
      return new Response(zipStream(entries(user.id)), {
        status: 200,
        headers: {
          'Content-Type': 'application/zip',
          'Content-Disposition': attachment(`loris-data-${day}.zip`),
          'Cache-Control': 'no-store',
        },
      })
    })
    .get(
      '/threads/:id/export',
      auth,
      validate('param', threadIdParam),
      validate('query', exportFormatQuery),
      async (c) => {
        const userId = c.get('user').id
        // One thread read and written out: plenty for a person, not a loop's worth of work.
        await enforceRateLimit(db, `thread-export:user:${userId}`, {
          limit: THREAD_EXPORTS_PER_HOUR,
          windowSeconds: 60 * 60,
          message: (wait) =>
            `You can export threads ${THREAD_EXPORTS_PER_HOUR} times an hour. Please try again in ${Math.ceil(wait / 60)} minutes.`,
        })
        const thread = await findOwnedThread(db, userId, c.req.valid('param').id)
        if (!thread) throw new AppError('not_found:thread', 'This thread does not exist')
        const { format } = c.req.valid('query')
        const name = `${slug(thread.title)}.${format === 'json' ? 'json' : 'md'}`
        return new Response(threadExportStream(db, userId, thread, now(), format), {
          status: 200,
          headers: {
            'Content-Type':
              format === 'json' ? 'application/json; charset=utf-8' : 'text/markdown; charset=utf-8',
            'Content-Disposition': attachment(name),
            'Cache-Control': 'no-store',
          },
        })
      },
    )
}
