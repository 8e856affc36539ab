// Deleting a thread, clearing history or deleting the account removes the files that only those
// messages used. Objects are shared by content (sha256), so one is deleted only when no uploads
// row uses it any more, and not while it is fresh: a put of the same bytes for someone else may
// not have inserted its row yet (storage.ts). docs/decisions/006-uploads-and-transcription.md, 042
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
 * objects among those and `keys` that no row uses. Returns how many objects were deleted; one
 * written or reused within the grace stays for the hourly sweep (unnamed-objects.ts).
 */
export async function removeUnreferencedObjects(
  d: UploadsDeps,
  opts: { userId?: string; keys?: string[] },
): Promise<number> {
  const candidates = [...(opts.keys ?? [])]
  if (opts.userId) candidates.push(...(await deleteOrphanUploads(d.db, opts.userId)))
  // Rows first, then the file's age (inside removeIfStale): a put that reuses the object after
  // this read has made it fresh, so it is spared.
  const unnamed = await keysWithoutUploads(d.db, candidates)
  let removed = 0
  for (const key of unnamed) if (await d.storage.removeIfStale(key)) removed++
  return removed
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
