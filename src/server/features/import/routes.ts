import { type Context, Hono } from 'hono'
import { IMPORT_LIMITS } from '#contract/import.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { enforceRateLimit } from '#server/lib/rate-limit.ts'
import { readFormFile } from '#server/lib/read-body.ts'
import { requireUser } from '#server/lib/session.ts'
import type { ObjectStorage } from '#server/lib/storage.ts'
import { importSlots, oneImportPerPerson } from './import-slots.ts'
import { readImportFile } from './parse.ts'
import { removeUnfinishedImports } from './queries.ts'
import type { AddProjectFile } from './restore-projects.ts'
import { importWriter } from './store-import.ts'

const UPLOAD_PACE = {
  graceMs: IMPORT_LIMITS.uploadGraceMs,
  minBytesPerSecond: IMPORT_LIMITS.uploadMinBytesPerSecond,
  deadlineMs: IMPORT_LIMITS.uploadDeadlineMs,
}

/** The import file of the form, read under the upload's pace: bytes the import may keep. */
async function uploadedFile(c: Context<AppEnv>): Promise<Uint8Array> {
  const file = await readFormFile(c, 'file', { pace: UPLOAD_PACE, maxFileBytes: IMPORT_LIMITS.maxFileBytes })
  if (!file || file.length === 0) throw new AppError('bad_request:input', 'Please choose a file to import')
  return file
}

export function importRoutes(
  deps: AppDeps,
  opts: { storage: ObjectStorage; addProjectFile?: AddProjectFile },
) {
  const { db } = deps.database
  return new Hono<AppEnv>().post('/import', requireUser(deps), async (c) => {
    const user = c.get('user')
    const log = c.get('log')
    await enforceRateLimit(db, `import:user:${user.id}`, { limit: 20, windowSeconds: 60 * 60 })
    const report = await oneImportPerPerson(user.id, async () => {
      // The body is read before the import waits for a slot: a slow upload holds no slot.
      const bytes = await uploadedFile(c)
      return importSlots.run(async () => {
        await removeUnfinishedImports(db, user.id)
        const writer = importWriter(db, user.id, opts.storage, log, {
          embedded: deps.database.kind === 'pglite',
          addProjectFile: opts.addProjectFile,
        })
        try {
          const { kind } = await readImportFile(bytes, writer, { transfer: true })
          return await writer.finish(kind)
        } catch (err) {
          await writer.abandon()
          throw err
        }
      })
    })
    log.info(
      {
        userId: user.id,
        source: report.source,
        threads: report.threadsImported,
        messages: report.messagesImported,
      },
      'conversations imported',
    )
    return c.json(report, 200)
  })
}
