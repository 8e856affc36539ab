// Each thread's history as it stood after the last reply this node stored (decision 033): what the
// thread's next send will most likely read, so its model call can start before the send's
// statement has answered. Only a guess: the statement's own history decides (early-start.ts).
// Bounded in size and kept for minutes, since a person's next send comes soon or not at all.
import type { HistoryExchange } from './history.ts'
import { HISTORY_ROWS } from './send-statement.ts'

export const KEPT_MS = 10 * 60_000
/** Characters kept in all (about 2 bytes each), the oldest entries dropped first. */
export const MAX_KEPT_CHARS = 4_000_000

interface Entry {
  userId: string
  history: HistoryExchange[]
  chars: number
  at: number
}

const charsOf = (history: HistoryExchange[]) =>
  history.reduce((n, e) => n + e.content.length + e.response.length, 0)

export class ThreadHistories {
  /** By thread, oldest first: a set moves its entry to the end. */
  private readonly entries = new Map<string, Entry>()
  private chars = 0
  private sweeper: ReturnType<typeof setInterval> | undefined

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** `history` oldest first, as the send statement reads it (its last HISTORY_ROWS exchanges). */
  set(threadId: string, userId: string, history: HistoryExchange[]) {
    this.forget(threadId)
    const kept = history.slice(-HISTORY_ROWS)
    const chars = charsOf(kept)
    if (chars > MAX_KEPT_CHARS) return
    this.entries.set(threadId, { userId, history: kept, chars, at: this.now() })
    this.chars += chars
    for (const [id] of this.entries) {
      if (this.chars <= MAX_KEPT_CHARS) break
      this.forget(id)
    }
    this.sweepLater()
  }

  /** The thread's history if this node stored its last reply lately, for this user only. */
  get(threadId: string, userId: string): HistoryExchange[] | undefined {
    const entry = this.entries.get(threadId)
    if (!entry || entry.userId !== userId) return undefined
    if (this.now() - entry.at > KEPT_MS) {
      this.forget(threadId)
      return undefined
    }
    return entry.history
  }

  /** Drops a person's threads: called when they delete threads, their history or their account. */
  forgetUser(userId: string) {
    for (const [id, entry] of this.entries) if (entry.userId === userId) this.forget(id)
  }

  forget(threadId: string) {
    const entry = this.entries.get(threadId)
    if (!entry) return
    this.entries.delete(threadId)
    this.chars -= entry.chars
  }

  /** Drops what is older than KEPT_MS: a person's words are not kept in memory longer than needed. */
  sweep() {
    const now = this.now()
    for (const [id, entry] of this.entries) {
      if (now - entry.at <= KEPT_MS) break
      this.forget(id)
    }
    if (this.entries.size === 0 && this.sweeper) {
      clearInterval(this.sweeper)
      this.sweeper = undefined
    }
  }

  get size() {
    return this.entries.size
  }

  private sweepLater() {
    if (this.sweeper) return
    this.sweeper = setInterval(() => this.sweep(), 60_000)
    this.sweeper.unref()
  }
}
