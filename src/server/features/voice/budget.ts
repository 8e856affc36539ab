// One transcription budget per user, whichever way the recording arrives: POST /api/transcribe or
// an audio attachment on POST /api/messages. Both spend from the same rate_limits row, so every
// node shares it. docs/decisions/009-limits-and-leases.md
import { sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { AppError } from '#server/lib/app-error.ts'
import { enforceRateLimit } from '#server/lib/rate-limit.ts'

// Each recording costs an engine call (or seconds of CPU offline); a person talks far less often.
export const TRANSCRIBE_BUDGET = { limit: 30, windowSeconds: 600 }
export const TRANSCRIBE_REFUSAL =
  'Too many recordings in a short time. Please wait a few minutes and try again.'

const keyOf = (userId: string) => `transcribe:${userId}`

/** Counts one transcription; 429 once the budget is spent (atomic: one upsert). */
export function spendTranscription(db: Db, userId: string): Promise<void> {
  return enforceRateLimit(db, keyOf(userId), { ...TRANSCRIBE_BUDGET, message: TRANSCRIBE_REFUSAL })
}

/** Refuses, without counting, when the budget is already spent: a recording then does no work. */
export async function checkTranscriptionBudget(db: Db, userId: string): Promise<void> {
  const result = (await db.execute(sql`
    select count,
      ceil(extract(epoch from (window_start + make_interval(secs => ${TRANSCRIBE_BUDGET.windowSeconds}) - now())))::int as retry_after
    from rate_limits where key = ${keyOf(userId)}
  `)) as unknown as { rows: { count: number; retry_after: number }[] }
  const row = result.rows[0]
  if (!row || Number(row.retry_after) <= 0 || Number(row.count) < TRANSCRIBE_BUDGET.limit) return
  throw new AppError('rate_limited:request', TRANSCRIBE_REFUSAL, {
    headers: { 'Retry-After': String(Math.max(1, Number(row.retry_after))) },
  })
}

const AUDIO_NAME = /\.(webm|weba|ogg|oga|opus|mp3|wav|m4a|mp4|aac|flac)$/i

/** What the sender says is a recording (its real kind is sniffed later, by the intake). */
export function looksLikeAudio(file: Pick<File, 'type' | 'name'>): boolean {
  return file.type.startsWith('audio/') || AUDIO_NAME.test(file.name)
}

type Transcribe = (bytes: Uint8Array, signal?: AbortSignal) => Promise<string>

/**
 * Puts attachment transcription on the user's budget: the intake names the sender with each
 * recording (no async context: AsyncLocalStorage would turn on Node's promise hooks for the whole
 * process, a cost on every await of every stream).
 */
export function transcriptionBudget(db: Db, transcribe: Transcribe) {
  return {
    transcribe: async (userId: string, bytes: Uint8Array, signal?: AbortSignal) => {
      await spendTranscription(db, userId)
      return transcribe(bytes, signal)
    },
    /** Runs an attachment intake for `userId`; a declared recording over budget stops here. */
    async forUser<T>(userId: string, file: Pick<File, 'type' | 'name'>, intake: () => Promise<T>) {
      if (looksLikeAudio(file)) await checkTranscriptionBudget(db, userId)
      return intake()
    },
  }
}
