import { z } from 'zod'

/** POST /api/transcribe (multipart field `audio`) → the recognised text (spec sections 3 and 7). */
export const transcriptionSchema = z.object({ transcription: z.string() })
export type Transcription = z.infer<typeof transcriptionSchema>

/** Longest recording transcribed; longer ones answer 413. */
export const MAX_RECORDING_SECONDS = 120

/** Which engine turns speech into text: auto picks the best configured one. */
export const transcribeEngineSchema = z.enum(['auto', 'openai', 'gemini', 'pocketsphinx'])
export type TranscribeEngine = z.infer<typeof transcribeEngineSchema>

/** Seconds as m:ss, the recording timer's format (spec 4). */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}
