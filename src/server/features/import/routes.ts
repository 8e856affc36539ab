import { Hono } from 'hono'
import { IMPORT_LIMITS } from '#contract/import.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { enforceRateLimit } from '#server/lib/rate-limit.ts'
import { readFormBody } from '#server/lib/read-body.ts'
import { requireUser } from '#server/lib/session.ts'
import type { ObjectStorage } from '#server/lib/storage.ts'
import { importSlots } from './import-slots.ts'
import { parseImportFile } from './parse.ts'
import { storeImport } from './store-import.ts'

export function importRoutes(deps: AppDeps, opts: { storage: ObjectStorage }) {
  const { db } = deps.database
  return new Hono<AppEnv>().post('/import', requireUser(deps), async (c) => {
    const user = c.get('user')
    // The slot is taken before the body is read: an import waiting for one holds no upload yet.
    const report = await importSlots.run(async () => {
      await enforceRateLimit(db, `import:user:${user.id}`, { limit: 20, windowSeconds: 60 * 60 })
      // A refusal while the body is read (its size limit) keeps its status; a malformed one is 400.
      const form = await readFormBody(c)
      const file = form.file
      if (!(file instanceof File) || file.size === 0)
        throw new AppError('bad_request:input', 'Please choose a file to import')
      if (file.size > IMPORT_LIMITS.maxFileBytes)
        throw new AppError(
          'payload_too_large:import',
          `An import file can be at most ${IMPORT_LIMITS.maxFileBytes / 1024 / 1024} MB`,
        )
      const parsed = await parseImportFile(new Uint8Array(await file.arrayBuffer()))
      return storeImport(db, user.id, parsed, opts.storage, c.get('log'))
    })
    c.get('log').info(
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
