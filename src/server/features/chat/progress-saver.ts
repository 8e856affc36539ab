// Progress saves batched across streams (issue 15). Every FLUSH_MS one statement saves the text
// of every reply being generated here that grew, and renews the lease of those due for it
// (FLAG_CHECK_MS), instead of one UPDATE per reply. A reply the statement did not touch must stop:
// Stop was pressed on some node, the row was deleted, or its lease was taken over (lease.ts).
import { sql } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { Db, Tx } from '#server/db/client.ts'
import { executeNamed } from '#server/db/named-statement.ts'

/**
 * A second (decision 019; 500 ms before): what a crash or a reload on another node sees lags the
 * reply by at most this; followers on this node get every token from memory.
 */
export const FLUSH_MS = 1_000
export const FLAG_CHECK_MS = 2_000
/** Rows per statement (each a few kilobytes of text at most in one array parameter). */
const BATCH_ROWS = 500

export interface SavedReply {
  readonly messageId: string
  /** The text so far. */
  text(): string
  /** Called when the reply must stop (see above). */
  stop(): void
}

interface Entry {
  reply: SavedReply
  flushed: string
  lastCheck: number
}

export class ProgressSaver {
  private readonly active = new Map<string, Entry>()
  private timer: ReturnType<typeof setInterval> | undefined
  private running: Promise<void> | null = null

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly everyMs = FLUSH_MS,
  ) {}

  add(reply: SavedReply) {
    this.active.set(reply.messageId, { reply, flushed: '', lastCheck: Date.now() })
    this.timer ??= setInterval(() => void this.tick(), this.everyMs)
  }

  /** Stops saving this reply, once a save in flight has finished (it is finalised next). */
  async remove(messageId: string) {
    this.active.delete(messageId)
    if (this.active.size === 0) {
      clearInterval(this.timer)
      this.timer = undefined
    }
    await this.running
  }

  /** One save of everything due; a slow database never piles saves up. */
  tick(): Promise<void> {
    if (this.running) return this.running
    this.running = this.save()
      .catch((err) => this.log.warn({ err }, 'saving reply progress failed'))
      .finally(() => {
        this.running = null
      })
    return this.running
  }

  private async save() {
    const now = Date.now()
    const due: { entry: Entry; text: string | null }[] = []
    for (const entry of this.active.values()) {
      const text = entry.reply.text()
      if (text !== entry.flushed) due.push({ entry, text })
      else if (now - entry.lastCheck >= FLAG_CHECK_MS) due.push({ entry, text: null })
    }
    for (let i = 0; i < due.length; i += BATCH_ROWS) {
      const batch = due.slice(i, i + BATCH_ROWS)
      const kept = await saveBatch(
        this.db,
        batch.map(({ entry, text }) => ({ id: entry.reply.messageId, response: text })),
      )
      for (const { entry, text } of batch) {
        if (!kept.has(entry.reply.messageId)) {
          // Gone from the saver meanwhile: it ended on its own.
          if (this.active.has(entry.reply.messageId)) entry.reply.stop()
          continue
        }
        if (text !== null) entry.flushed = text
        entry.lastCheck = now
      }
    }
  }
}

/**
 * Saves each reply's text (null: only renews the lease) in one statement; returns the ids it
 * touched, i.e. those still streaming. The rows go as two arrays, so the statement's text is the
 * same for any number of replies: prepared once on PostgreSQL (db/named-statement.ts), and built
 * without a parameter per row.
 */
export async function saveBatch(
  db: Db | Tx,
  rows: { id: string; response: string | null }[],
): Promise<Set<string>> {
  if (rows.length === 0) return new Set()
  const ids = rows.map((r) => r.id)
  const responses = rows.map((r) => r.response)
  const result = await executeNamed<{ id: string }>(
    db,
    sql`
    update messages m
    set response = coalesce(v.response, m.response), heartbeat_at = now()
    from unnest(${sql.param(ids)}::uuid[], ${sql.param(responses)}::text[]) as v(id, response)
    where m.id = v.id and m.status = 'streaming'
    returning m.id
  `,
  )
  return new Set(result.rows.map((r) => r.id))
}
