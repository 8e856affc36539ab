// Stores what parse.ts read, thread by thread, and writes the report a person reads. Each thread
// is stored on its own (queries.ts): one the database refuses is reported as skipped and the
// others are still stored, so a retry (which skips what is already imported) is never stuck on it.
import type { Logger } from 'pino'
import { IMPORT_LIMITS, type ImportReport, MB } from '#contract/import.ts'
import type { Db } from '#server/db/client.ts'
import { analyzeAfterLoad } from '#server/db/pglite-upkeep.ts'
import type { ObjectStorage } from '#server/lib/storage.ts'
import type { ImportBatch, ParsedImport } from './parse.ts'
import { type ImportFiles, storeImportedThread } from './queries.ts'
import { type AddProjectFile, projectRestorer, type RestoredAssistant } from './restore-projects.ts'
import { writtenFiles } from './written-files.ts'

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

// SQLSTATE classes of a value the database will not take (22: data exception, such as an
// overflow or a character the encoding cannot hold; 23: a constraint; 54: a size limit). They
// belong to the thread, which is skipped; any other error (the database gone, the disk full)
// belongs to the server and fails the import, so nothing is reported as skipped that a retry
// would import.
const REFUSED_VALUE = /^(22|23|54)/

function sqlState(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e)
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code
  return undefined
}

/** What came back beside the threads, and what of it was left out, in plain words. */
function restoredNotes(r: RestoredAssistant | null, projectsCreated: number): string[] {
  const notes: string[] = []
  if (projectsCreated || r?.filesAdded)
    notes.push(
      `${plural(projectsCreated, 'project')} restored, ${plural(r?.filesAdded ?? 0, 'project file')} added`,
    )
  if (r?.instructions === 'restored') notes.push('Your custom instructions were restored')
  if (r?.instructions === 'kept')
    notes.push('Your custom instructions here were kept: the ones in the export were not imported')
  if (r?.filesLeftOut)
    notes.push(
      `${plural(r.filesLeftOut, 'project file')} left out: not in the export, or refused by the project (a project keeps at most 50 documents)`,
    )
  return notes
}

/**
 * Stores what the worker reads, a file or a batch at a time, and writes the report a person
 * reads: the threads imported, the first maxListedSkipped left out with why and how many in all,
 * notes. Each file is written to storage as it arrives (content addressed: one object however
 * many messages name it), so the server holds one at a time; the threads' uploads rows then name
 * it. What no thread came to use is given up when the import ends, whether it finished
 * (`finish`) or failed (`abandon`), under the storage's grace (written-files.ts).
 */
export function importWriter(
  db: Db,
  userId: string,
  storage: ObjectStorage,
  log: Logger,
  {
    embedded = false,
    addProjectFile,
  }: {
    /** The embedded database: held by each statement, so analysed on a small sample. */
    embedded?: boolean
    /** How a restored project gets its files (app.ts: the knowledge feature's path). */
    addProjectFile?: AddProjectFile
  } = {},
) {
  const skipped: ImportReport['skipped'] = []
  let skippedCount = 0
  const skip = (entry: { title: string; reason: string }) => {
    skippedCount++
    if (skipped.length < IMPORT_LIMITS.maxListedSkipped) skipped.push(entry)
  }
  let threadsImported = 0
  let messagesImported = 0
  let droppedParts = 0
  let otherBranches = 0
  let unreadable = 0
  let filesLeftOut = 0
  let filesOverBudget = 0
  const written = writtenFiles(storage, log)
  const files: ImportFiles = {
    stored: new Map(),
    overBudget: new Set(),
    keep: (key) => storage.keep(key),
  }
  const projects = projectRestorer(db, userId, addProjectFile)
  let restored: RestoredAssistant | null = null
  let assistantNotes: string[] = []
  return {
    async file(path: string, bytes: Uint8Array): Promise<void> {
      files.stored.set(path, { key: await written.put(bytes), size: bytes.length })
    },

    fileOverBudget(path: string): void {
      files.overBudget.add(path)
    },

    async batch(batch: ImportBatch): Promise<void> {
      // The instructions and projects before the first thread, which may belong to one of them.
      // A project's file is read back from storage, where it was written as it arrived.
      if (batch.assistant && !restored) {
        restored = await projects.restore(batch.assistant, {
          read: async (path) => {
            const file = files.stored.get(path)
            return file ? storage.get(file.key) : null
          },
        })
        assistantNotes = batch.assistant.notes
      }
      for (const entry of batch.skipped) skip(entry)
      for (const thread of batch.threads) {
        let stored: Awaited<ReturnType<typeof storeImportedThread>>
        try {
          const projectId = await projects.projectFor(thread)
          stored = await storeImportedThread(db, userId, thread, files, projectId)
        } catch (err) {
          // Removed (its uploads rows with it): its files go with the others no thread uses.
          const code = sqlState(err)
          if (!code || !REFUSED_VALUE.test(code)) throw err
          log.warn({ err, userId, source: thread.source, code }, 'imported thread refused by the database')
          stored = { ok: false, reason: 'it holds a value Loris cannot store' }
        }
        if (!stored.ok) {
          skip({ title: thread.title, reason: stored.reason })
          continue
        }
        threadsImported++
        messagesImported += stored.messages
        droppedParts += thread.notes.droppedParts
        otherBranches += thread.notes.otherBranches
        unreadable += thread.notes.unreadable
        filesLeftOut += stored.filesLeftOut
        filesOverBudget += stored.filesOverBudget
      }
    },

    /** After a failed import: the files it wrote that no uploads row uses are given up. */
    async abandon(): Promise<void> {
      await written.discard(db, { userId })
    },

    async finish(kind: ImportReport['source']): Promise<ImportReport> {
      await written.discard(db, { userId })
      // A bulk load: the lists the person opens next are planned on statistics that know it.
      await analyzeAfterLoad(
        db,
        { threads: threadsImported, messages: messagesImported },
        embedded ? { statisticsTarget: 10 } : {},
      )
      const notes: string[] = []
      if (droppedParts)
        notes.push(
          `${plural(droppedParts, 'picture or other non-text part', 'pictures or other non-text parts')} left out: only text is imported`,
        )
      if (otherBranches)
        notes.push(
          `${plural(otherBranches, 'edited or regenerated alternative')} left out: Loris keeps each conversation's current branch`,
        )
      if (unreadable)
        notes.push(
          `${plural(unreadable, 'message or part of one', 'messages or parts of messages')} left out: they are not in the form of a ChatGPT export (the file may have been edited or damaged)`,
        )
      if (filesLeftOut)
        notes.push(
          `${plural(filesLeftOut, 'attached file')} not in the export or of a type Loris does not keep: the messages are imported without them`,
        )
      if (filesOverBudget)
        notes.push(
          `${plural(filesOverBudget, 'attached file')} left out: one import brings back at most ${IMPORT_LIMITS.maxFilesBytes / MB} MB of files. The messages are imported without them`,
        )
      notes.push(...assistantNotes, ...restoredNotes(restored, projects.projectsCreated))
      return {
        source: kind,
        threadsImported,
        messagesImported,
        projectsImported: projects.projectsCreated,
        skipped,
        skippedCount,
        notes,
      }
    },
  }
}

/** Stores a file read whole (parseImportFile): its files, then one batch of everything. */
export async function storeImport(
  db: Db,
  userId: string,
  parsed: ParsedImport,
  storage: ObjectStorage,
  log: Logger,
): Promise<ImportReport> {
  const writer = importWriter(db, userId, storage, log)
  try {
    for (const [path, bytes] of parsed.files) await writer.file(path, bytes)
    for (const path of parsed.filesOverBudget) writer.fileOverBudget(path)
    await writer.batch({ threads: parsed.threads, skipped: parsed.skipped, assistant: parsed.assistant })
  } catch (err) {
    await writer.abandon()
    throw err
  }
  return writer.finish(parsed.kind)
}
