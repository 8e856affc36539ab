// Imports running at once in this process. One import can hold the upload (up to 100 MB), a copy
// in its worker, the files it brings back (up to IMPORT_LIMITS.maxFilesBytes) and the worker's
// heap; a few together would take the server's memory. Like the attachments' parse pool, a short
// queue waits and the next is refused at once with 503.
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
      // A refused import's body is not read, so the connection cannot carry another request
      // (as for the body limit in app.ts). An import takes seconds, at most a minute.
      { headers: { 'retry-after': '30', Connection: 'close' } },
    ),
)
