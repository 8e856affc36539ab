// Imports running at once in this process. One import holds its upload (up to 100 MB, read before
// it waits here), one file it brings back at a time (up to IMPORT_LIMITS.maxFileBytesInZip, in the
// worker and again as it is written), one batch of threads and the worker's heap; a few together
// would take the server's memory. Like the
// attachments' parse pool, a short queue waits and the next is refused at once with 503.
import { AppError } from '#server/lib/app-error.ts'
import { ConcurrencyLimit } from '#server/lib/concurrency-limit.ts'

/** One import running and two waiting; a fourth is answered 503. */
export const importSlots = new ConcurrencyLimit(
  1,
  2,
  () =>
    new AppError(
      'service_unavailable:import_busy',
      'Loris is importing other files right now. Please try your import again in a minute.',
      // An import takes seconds, at most a minute.
      { headers: { 'retry-after': '30' } },
    ),
)

/** The people with an import under way, from the first byte of its upload to its report. */
const importing = new Set<string>()

/**
 * One import per person at a time: a second, while the first is read, waits or runs, is refused
 * at once (429), so one person can hold at most one of the slots above.
 */
export async function oneImportPerPerson<T>(userId: string, task: () => Promise<T>): Promise<T> {
  if (importing.has(userId))
    throw new AppError(
      'rate_limited:import_running',
      'Your other import is still running. Please wait for its report, then import again.',
      // Its body is not read, so the connection cannot carry another request.
      { headers: { 'retry-after': '30', Connection: 'close' } },
    )
  importing.add(userId)
  try {
    return await task()
  } finally {
    importing.delete(userId)
  }
}
