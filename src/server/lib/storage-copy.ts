// Copies one object store into another (`npm run storage:migrate`: the disk into a bucket).
// Resumable: an object the target already has is skipped, so a run stopped halfway is run again.
import { contentKey, type ObjectStorage } from './storage.ts'

export interface CopyProgress {
  copied: number
  skipped: number
  /** Objects whose bytes no longer match their key (a damaged file): left out, and named. */
  damaged: string[]
}

/** Objects copied at once: enough to hide a bucket's round trips, few enough to be gentle. */
const BATCH = 8

export async function copyStore(
  from: ObjectStorage,
  to: ObjectStorage,
  onBatch: (progress: CopyProgress) => void = () => {},
): Promise<CopyProgress> {
  const progress: CopyProgress = { copied: 0, skipped: 0, damaged: [] }
  const copyOne = async (key: string) => {
    if (await to.has(key)) {
      progress.skipped++
      return
    }
    const bytes = await from.get(key)
    // Removed by a sweep since the listing: nothing to copy.
    if (!bytes) return
    if (contentKey(bytes) !== key) {
      progress.damaged.push(key)
      return
    }
    await to.put(bytes)
    progress.copied++
  }
  let batch: string[] = []
  const flush = async () => {
    await Promise.all(batch.map(copyOne))
    batch = []
    onBatch(progress)
  }
  for await (const key of from.scan()) {
    batch.push(key)
    if (batch.length === BATCH) await flush()
  }
  if (batch.length) await flush()
  return progress
}
