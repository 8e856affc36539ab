// One thread's export written as it is read (decision 049): the messages a batch at a time, each
// batch one short statement, so a thread of any length neither sits whole in memory nor holds the
// database or the main thread for long; the response body pulls the next batch when it needs it.
import type { Db } from '#server/db/client.ts'
import {
  exportHead,
  markdownExchange,
  markdownHead,
  type ThreadProject,
  toExportedMessage,
} from './format.ts'
import { type ExportThreadRow, exportBatch, inIndexOrder, shownBatch, shownCount } from './queries.ts'

/** Messages read per statement. */
export const EXPORT_BATCH = 250

const noPaths = { withFilePaths: false }

/** Loris's JSON export of one thread (exportedThreadSchema), every version of every turn. */
async function* threadJson(
  db: Db,
  userId: string,
  thread: ExportThreadRow,
  now: Date,
  project: ThreadProject,
) {
  const head = JSON.stringify(exportHead(thread, now, project))
  // The head's closing brace is left open for the messages.
  yield `${head.slice(0, -1)},"messages":[`
  let after: { createdAt: string; id: string } | null = null
  let first = true
  for (;;) {
    const rows = await inIndexOrder(db, (tx) => exportBatch(tx, userId, thread, after, EXPORT_BATCH))
    if (rows.length === 0) break
    yield (first ? '' : ',') + rows.map((row) => row.json).join(',')
    first = false
    const last = rows.at(-1)
    if (!last || rows.length < EXPORT_BATCH) break
    after = { createdAt: last.createdAt, id: last.id }
  }
  yield ']}'
}

/** The conversation the thread shows, in Markdown, turn by turn. */
async function* threadMarkdown(db: Db, userId: string, thread: ExportThreadRow, now: Date) {
  yield markdownHead(thread.title, now.toISOString(), await shownCount(db, thread))
  let after = -1
  for (;;) {
    const rows = await inIndexOrder(db, (tx) => shownBatch(tx, userId, thread, after, EXPORT_BATCH))
    if (rows.length === 0) break
    yield rows
      .map((row) =>
        markdownExchange(
          toExportedMessage(
            row,
            { version: row.version, parentId: row.parentInThread, shown: true },
            noPaths,
          ),
          row.versions,
        ),
      )
      .join('')
    const last = rows.at(-1)
    if (!last || rows.length < EXPORT_BATCH) break
    after = last.depth
  }
}

/** A thread's export as a response body in `format`. */
export function threadExportStream(
  db: Db,
  userId: string,
  thread: ExportThreadRow,
  now: Date,
  format: 'json' | 'markdown',
  project: ThreadProject = null,
): ReadableStream<Uint8Array> {
  const parts =
    format === 'json' ? threadJson(db, userId, thread, now, project) : threadMarkdown(db, userId, thread, now)
  const encoder = new TextEncoder()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await parts.next()
        if (next.done) controller.close()
        else controller.enqueue(encoder.encode(next.value))
      } catch (err) {
        controller.error(err)
      }
    },
    async cancel() {
      await parts.return(undefined)
    },
  })
}
