// Every FLUSH_MS one statement saves the text of every reply generating here that grew, and renews
// the lease of those due (FLAG_CHECK_MS). A reply it did not touch must stop: stopped on some node,
// deleted, taken over (lease.ts) or restarted as another attempt, which may run on this very node:
// replies are kept by attempt, not by message.
import { sql } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { Db, Tx } from '#server/db/client.ts'
import { executeNamed } from '#server/db/named-statement.ts'

/** What another node (or a crash) sees lags the reply by at most this; followers here read memory. */
export const FLUSH_MS = 1_000
export const FLAG_CHECK_MS = 2_000
/** Rows per statement (each a few kilobytes of text at most in one array parameter). */
const BATCH_ROWS = 500

export interface SavedReply {
  readonly messageId: string
  /** The attempt at the reply it writes (messages.attempt_id). */
  readonly attemptId: string
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
    this.active.set(reply.attemptId, { reply, flushed: '', lastCheck: Date.now() })
    this.timer ??= setInterval(() => void this.tick(), this.everyMs)
  }

  /** Stops saving this attempt, once a save in flight has finished (it is finalised next). */
  async remove(attemptId: string) {
    this.active.delete(attemptId)
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
      const rows = batch.map(({ entry: { reply }, text }) => ({
        id: reply.messageId,
        attemptId: reply.attemptId,
        response: text,
      }))
      const kept = await saveBatch(this.db, rows)
      for (const { entry, text } of batch) {
        if (!kept.has(entry.reply.attemptId)) {
          // Gone from the saver meanwhile: it ended on its own.
          if (this.active.has(entry.reply.attemptId)) entry.reply.stop()
          continue
        }
        if (text !== null) entry.flushed = text
        entry.lastCheck = now
      }
    }
  }
}

/**
 * Saves each reply's text (null: only renews the lease) in one statement; returns the attempts it
 * touched: those still streaming and still the row's attempt. The rows go as three arrays, so the
 * statement's text is the same for any number of replies (prepared once: db/named-statement.ts).
 */
export async function saveBatch(
  db: Db | Tx,
  rows: { id: string; attemptId: string; response: string | null }[],
): Promise<Set<string>> {
  if (rows.length === 0) return new Set()
  const ids = rows.map((r) => r.id)
  const attempts = rows.map((r) => r.attemptId)
  const responses = rows.map((r) => r.response)
  const result = await executeNamed<{ attempt_id: string }>(
    db,
    sql`
    update messages m
    set response = coalesce(v.response, m.response), heartbeat_at = now()
    from unnest(${sql.param(ids)}::uuid[], ${sql.param(attempts)}::uuid[], ${sql.param(responses)}::text[])
      as v(id, attempt_id, response)
    where m.id = v.id and m.attempt_id = v.attempt_id and m.status = 'streaming'
    returning m.attempt_id
  `,
  )
  return new Set(result.rows.map((r) => r.attempt_id))
}
