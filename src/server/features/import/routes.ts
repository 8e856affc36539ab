import { Hono } from 'hono'
import { IMPORT_LIMITS, type ImportReport } from '#contract/import.ts'
import { analyzeAfterLoad } from '#server/db/pglite-upkeep.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { AppDeps, AppEnv } from '#server/lib/context.ts'
import { enforceRateLimit } from '#server/lib/rate-limit.ts'
import { requireUser } from '#server/lib/session.ts'
import type { ObjectStorage } from '#server/lib/storage.ts'
import { parseImportFile } from './parse.ts'
import { storeImportedThread } from './queries.ts'

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

export function importRoutes(deps: AppDeps, opts: { storage: ObjectStorage }) {
  const { db } = deps.database
  return new Hono<AppEnv>().post('/import', requireUser(deps), async (c) => {
    const user = c.get('user')
    await enforceRateLimit(db, `import:user:${user.id}`, { limit: 20, windowSeconds: 60 * 60 })
    const form = await c.req.parseBody().catch(() => {
      throw new AppError('bad_request:input', 'Please choose a file to import')
    })
    const file = form.file
    if (!(file instanceof File) || file.size === 0)
      throw new AppError('bad_request:input', 'Please choose a file to import')
    if (file.size > IMPORT_LIMITS.maxFileBytes)
      throw new AppError(
        'payload_too_large:import',
        `An import file can be at most ${IMPORT_LIMITS.maxFileBytes / 1024 / 1024} MB`,
      )
    const parsed = await parseImportFile(new Uint8Array(await file.arrayBuffer()))

    const report: ImportReport = {
      source: parsed.kind,
      threadsImported: 0,
      messagesImported: 0,
      skipped: [...parsed.skipped],
      notes: [],
    }
    let droppedParts = 0
    let otherBranches = 0
    let filesLeftOut = 0
    for (const thread of parsed.threads) {
      const stored = await storeImportedThread(db, user.id, thread, {
        bytes: parsed.files,
        storage: opts.storage,
      })
      if (!stored.ok) {
        report.skipped.push({ title: thread.title, reason: stored.reason })
        continue
      }
      report.threadsImported++
      report.messagesImported += stored.messages
      droppedParts += thread.notes.droppedParts
      otherBranches += thread.notes.otherBranches
      filesLeftOut += stored.filesLeftOut
    }
    // A bulk load: the lists the person opens next are planned on statistics that know it.
    await analyzeAfterLoad(db, { threads: report.threadsImported, messages: report.messagesImported })
    if (droppedParts)
      report.notes.push(
        `${plural(droppedParts, 'picture or other non-text part', 'pictures or other non-text parts')} left out: only text is imported`,
      )
    if (otherBranches)
      report.notes.push(
        `${plural(otherBranches, 'edited or regenerated alternative')} left out: Loris keeps each conversation's current branch`,
      )
    if (filesLeftOut)
      report.notes.push(
        `${plural(filesLeftOut, 'attached file')} not in the export or of a type Loris does not keep: the messages are imported without them`,
      )
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
