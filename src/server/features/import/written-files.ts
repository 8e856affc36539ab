// The files one import writes to storage. Each is written as the worker reads it, before any
// thread that names it is stored: an uploads row names its file, and a row committed before its
// file was written would show a broken attachment if the write then failed. What no thread came
// to use (its thread skipped, refused or already imported, or the import failed) is given up again
// when the import ends, under the storage's one rule: an object written or reused within the grace
// stays, as another upload of the same bytes may be about to insert its row. The import's own
// writes are that fresh, so they (and what a crash before the end leaves) go with the hourly sweep
// of objects no uploads row names (unnamed-objects.ts in attachments, decision 042).
import type { Logger } from 'pino'
import type { Db } from '#server/db/client.ts'
import type { ObjectStorage } from '#server/lib/storage.ts'
import { storageKeysInUse } from './queries.ts'

/** Keys looked up per statement when the import ends. */
const KEYS_PER_LOOKUP = 500

export function writtenFiles(storage: ObjectStorage, log: Logger) {
  const keys = new Set<string>()
  return {
    async put(bytes: Uint8Array): Promise<string> {
      const key = await storage.put(bytes)
      keys.add(key)
      return key
    },
    /**
     * Once the import has ended: removes the files written that no uploads row uses and that are
     * no longer fresh. Storage is shared by content, so a file another upload (or an earlier
     * import) holds stays.
     * A failure here is logged: the import's own answer (or error) is the one to report.
     */
    async discard(db: Db, context: Record<string, unknown>): Promise<void> {
      const written = [...keys]
      keys.clear()
      try {
        for (let at = 0; at < written.length; at += KEYS_PER_LOOKUP) {
          const batch = written.slice(at, at + KEYS_PER_LOOKUP)
          const used = await storageKeysInUse(db, batch)
          for (const key of batch) if (!used.has(key)) await storage.removeIfStale(key)
        }
      } catch (err) {
        log.warn({ err, ...context }, 'removing the files of an import that no thread uses failed')
      }
    },
  }
}
