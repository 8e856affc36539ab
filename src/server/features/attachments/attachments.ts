// The attachments feature as app.ts composes it: one storage, the intake the chat feature uses,
// the sweep run after deletions, and the file-serving routes.
import { join } from 'node:path'
import type { Env } from '#server/env.ts'
import type { AppDeps } from '#server/lib/context.ts'
import { createS3Storage, type S3Settings, s3Client } from '#server/lib/s3-storage.ts'
import { createDiskStorage, type ObjectStorage } from '#server/lib/storage.ts'
import { createAttachmentIntake, type IntakeDeps } from './intake.ts'
import { sharedParsePool } from './parse-pool.ts'
import { attachmentsRoutes } from './routes.ts'
import { sweepAfterDelete } from './sweep.ts'

type StorageEnv = S3Settings & Pick<Env, 'DATA_DIR'>
const stores = new WeakMap<StorageEnv, ObjectStorage>()

/**
 * Where uploaded files are stored: the app's and the hourly sweep's (main.ts) storage, one per
 * environment. A bucket when S3_BUCKET is set (several nodes share it), else DATA_DIR/uploads.
 */
export function uploadsStorage(env: StorageEnv): ObjectStorage {
  let storage = stores.get(env)
  if (!storage) {
    storage = env.S3_BUCKET
      ? createS3Storage(s3Client(env), env.S3_BUCKET)
      : createDiskStorage(join(env.DATA_DIR, 'uploads'))
    stores.set(env, storage)
  }
  return storage
}

export function createAttachments(
  deps: AppDeps,
  opts: { transcribe: IntakeDeps['transcribe']; storage?: ObjectStorage },
) {
  const storage = opts.storage ?? uploadsStorage(deps.env)
  const d = { db: deps.database.db, storage, log: deps.log }
  return {
    storage,
    intake: createAttachmentIntake({ ...d, transcribe: opts.transcribe }),
    /**
     * Run after a thread, the history or an account is deleted. An account's uploads rows are gone
     * with it, so account deletion passes the storage keys they used.
     */
    afterDelete: sweepAfterDelete(d),
    routes: () => attachmentsRoutes(deps, storage),
    /** A fetched web page's title and readable text, read in the parse pool (tools' read_link). */
    readPage: (bytes: Uint8Array, url: string) => sharedParsePool().readPage(bytes, url),
  }
}
