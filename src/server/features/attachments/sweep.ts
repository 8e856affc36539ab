// Deleting a thread, clearing history or deleting the account removes the files that only those
// messages used. Objects are shared by content (sha256), so one is deleted only when no uploads
// row uses it any more. docs/decisions/006-uploads-and-transcription.md
import type { Logger } from 'pino'
import type { Db } from '#server/db/client.ts'
import type { ObjectStorage } from '#server/lib/storage.ts'
import { deleteOrphanUploads, keysWithoutUploads } from './queries.ts'

export interface UploadsDeps {
  db: Db
  storage: ObjectStorage
  log: Logger
}

/**
 * Drops the user's uploads rows no message refers to (their messages were just deleted), then the
 * objects among those and `keys` that no row uses. Returns how many objects were deleted.
 */
export async function removeUnreferencedObjects(
  d: UploadsDeps,
  opts: { userId?: string; keys?: string[] },
): Promise<number> {
  const candidates = [...(opts.keys ?? [])]
  if (opts.userId) candidates.push(...(await deleteOrphanUploads(d.db, opts.userId)))
  const gone = await keysWithoutUploads(d.db, candidates)
  for (const key of gone) await d.storage.remove(key)
  return gone.length
}

/** The sweep as an after-delete hook: a failure is logged, never fails the deletion itself. */
export function sweepAfterDelete(d: UploadsDeps) {
  return async (userId: string, keys: string[] = []) => {
    try {
      await removeUnreferencedObjects(d, { userId, keys })
    } catch (err) {
      d.log.warn({ err, userId }, 'removing deleted files failed')
    }
  }
}
