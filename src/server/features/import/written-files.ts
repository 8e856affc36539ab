// The files one imported thread writes to storage. They are written inside the thread's
// transaction, before its commit: an uploads row names its file, and a row committed before its
// file was written would show a broken attachment if the write then failed. So a transaction that
// fails (a value the database refuses, the database gone) gives its files up again here, under the
// storage's one rule: an object written or reused within the grace stays, as another upload of
// the same bytes may be about to insert its row. The thread's own writes are that fresh, so they
// (and what a crash between the write and the commit leaves) go with the hourly sweep of objects
// no uploads row names (unnamed-objects.ts in attachments, decision 042).
import type { Logger } from 'pino'
import type { Db } from '#server/db/client.ts'
import type { ObjectStorage } from '#server/lib/storage.ts'
import { storageKeysInUse } from './queries.ts'

export function writtenFiles(storage: ObjectStorage, log: Logger) {
  const keys: string[] = []
  return {
    async put(bytes: Uint8Array): Promise<string> {
      const key = await storage.put(bytes)
      keys.push(key)
      return key
    },
    /**
     * After the transaction rolled back: removes the files written that no uploads row uses and
     * that are no longer fresh. Storage is shared by content, so a file another upload (or an
     * earlier import) holds stays.
     * A failure here is logged: the error that failed the thread is the one to report.
     */
    async discard(db: Db, context: Record<string, unknown>): Promise<void> {
      if (keys.length === 0) return
      try {
        const used = await storageKeysInUse(db, keys)
        for (const key of new Set(keys)) if (!used.has(key)) await storage.removeIfStale(key)
      } catch (err) {
        log.warn({ err, ...context }, 'removing the files of a failed import failed')
      }
    },
  }
}
