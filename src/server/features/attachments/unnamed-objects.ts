// The hourly sweep of stored objects no uploads row names (docs/decisions/042). Deletions remove
// their own objects (sweep.ts), but some are left: a process killed after an account's deletion
// committed and before its files went, or that removal failing (only logged), so a deleted
// person's files stayed; one killed between a thread's rows and its files, between a put and its
// row (intake.ts) or before an import's commit; fresh objects a deletion spared; writes cut short.
import { countInWindow } from '#server/lib/rate-limit.ts'
import { type RepeatingJob, startRepeatingJob } from '#server/lib/repeating-job.ts'
import { keysWithoutUploads } from './queries.ts'
import type { UploadsDeps } from './sweep.ts'

/** Keys checked against the table per statement: neither the store nor the table is read whole. */
export const SWEEP_BATCH = 500
const HOUR_MS = 60 * 60_000
// Not at start: a large store's walk would run beside a (re)started node's first requests, and a
// rolling restart would have every node try the claim at once. Crash leftovers can wait minutes.
const FIRST_SWEEP_AFTER_MS = 5 * 60_000
// Nodes sharing the database share the store (decision 015): one sweep an hour among them all is
// enough. The claim lasts under the hour, so the node that swept finds it over at its next tick.
const CLAIM_KEY = 'job:sweep-unnamed-objects'
const CLAIM_SECONDS = 55 * 60

export interface SweepResult {
  scanned: number
  removed: number
}

/**
 * Walks the store a folder at a time, checks its keys against `uploads` a batch at a time, and
 * removes the stale objects no row names (storage.ts's one rule: a fresh object may be a put whose
 * row comes next). Two at once (two nodes) are safe: each removal is judged on its own.
 */
export async function sweepUnnamedObjects(
  d: UploadsDeps,
  opts: { batch?: number; signal?: AbortSignal } = {},
): Promise<SweepResult> {
  const size = opts.batch ?? SWEEP_BATCH
  const result: SweepResult = { scanned: 0, removed: 0 }
  let batch: string[] = []
  const settle = async () => {
    // Rows first, age second (inside removeIfStale): a put reusing an object after this read has
    // made it fresh.
    for (const key of await keysWithoutUploads(d.db, batch))
      if (await d.storage.removeIfStale(key)) result.removed++
    batch = []
  }
  for await (const key of d.storage.scan()) {
    result.scanned++
    batch.push(key)
    if (batch.length < size) continue
    await settle()
    // A shutdown does not wait for a long walk; the next run starts over.
    if (opts.signal?.aborted) return result
  }
  if (batch.length > 0) await settle()
  return result
}

/**
 * One hourly run: the node that claims this hour sweeps, the others skip. An idle server's run is
 * one statement (the claim) and, for the node that sweeps, a walk of the folders with one
 * statement per 500 objects.
 */
export async function sweepUnnamedObjectsIfDue(d: UploadsDeps, signal?: AbortSignal) {
  const { count } = await countInWindow(d.db, CLAIM_KEY, CLAIM_SECONDS)
  if (count > 1) return null
  const started = performance.now()
  const result = await sweepUnnamedObjects(d, { signal })
  if (result.removed > 0)
    d.log.info(
      { ...result, ms: Math.round(performance.now() - started) },
      'removed stored files no upload names',
    )
  return result
}

/** Sweeps 5 minutes after start, then hourly (lib/repeating-job.ts: never two at once); stopping ends a walk early. */
export function startUnnamedObjectSweeper(d: UploadsDeps): RepeatingJob {
  const stopping = new AbortController()
  const job = startRepeatingJob(() => sweepUnnamedObjectsIfDue(d, stopping.signal), HOUR_MS, {
    firstAfterMs: FIRST_SWEEP_AFTER_MS,
    onError: (err) => d.log.warn({ err }, 'sweeping files no upload names failed'),
  })
  return {
    stop() {
      stopping.abort()
      return job.stop()
    },
  }
}
