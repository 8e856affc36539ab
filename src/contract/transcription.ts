import { z } from 'zod'

/** POST /api/transcribe (multipart field `audio`) → the recognised text (spec sections 3 and 7). */
export const transcriptionSchema = z.object({ transcription: z.string() })
export type Transcription = z.infer<typeof transcriptionSchema>

export { MAX_RECORDING_SECONDS } from './recording.ts'

/** Which engine turns speech into text: auto picks the best configured one. */
export const transcribeEngineSchema = z.enum(['auto', 'openai', 'gemini', 'pocketsphinx'])
export type TranscribeEngine = z.infer<typeof transcribeEngineSchema>
