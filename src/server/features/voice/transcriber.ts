// Recorded speech to text: decode, check, hand to the chosen engine, clean up. Used by
// POST /api/transcribe and by messages sent with an audio attachment (composed in app.ts).
import type { Logger } from 'pino'
import type { Env } from '#server/env.ts'
import { AppError } from '#server/lib/app-error.ts'
import { withDecodedAudio } from './audio.ts'
import {
  chooseEngine,
  createEngine,
  defaultTools,
  type TranscriptionEngine,
  type VoiceTools,
} from './engines.ts'

/** What people read when this server has no way to transcribe (no environment variable names). */
export const VOICE_UNAVAILABLE = 'Voice input is not available on this server'

export interface Transcriber {
  availability(): { available: boolean; reason: string | null }
  /** The words in the recording; AppError 413/422/502/503 with a message a person can act on. */
  transcribe(bytes: Uint8Array, signal?: AbortSignal): Promise<string>
}

export interface TranscriberOptions {
  log: Logger
  tools?: VoiceTools
  /** Where the per-request temp directories go (default: the OS temp dir). */
  tmpRoot?: string
}

// The offline engine is CPU bound: a few at a time keep the server answering everything else.
const OFFLINE_CONCURRENCY = 2

function limiter(max: number) {
  let active = 0
  const waiting: (() => void)[] = []
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve))
    active++
    try {
      return await work()
    } finally {
      active--
      waiting.shift()?.()
    }
  }
}

export function createTranscriber(env: Env, opts: TranscriberOptions): Transcriber {
  const tools = opts.tools ?? defaultTools
  const choice = chooseEngine(env, tools)
  const engine: TranscriptionEngine | null = choice.id ? createEngine(choice.id, env, tools) : null
  const offline = limiter(OFFLINE_CONCURRENCY)

  async function recognise(e: TranscriptionEngine, bytes: Uint8Array, signal?: AbortSignal) {
    return withDecodedAudio(bytes, { ffmpeg: tools.ffmpeg, tmpRoot: opts.tmpRoot, signal }, async (audio) => {
      try {
        return await e.transcribe(audio, signal)
      } catch (err) {
        if (err instanceof AppError) throw err
        opts.log.warn({ err, engine: e.id }, 'transcription failed')
        throw new AppError('bad_gateway:transcription', 'Transcription failed. Please try again.')
      }
    })
  }

  return {
    // People read the plain words; the operator finds the cause (choice.reason) in the start-up table.
    availability: () => ({ available: Boolean(engine), reason: engine ? null : VOICE_UNAVAILABLE }),
    async transcribe(bytes, signal) {
      if (!engine) throw new AppError('service_unavailable:transcription', VOICE_UNAVAILABLE)
      if (bytes.length === 0) throw new AppError('unprocessable:audio', 'The recording is empty.')
      const text = (
        engine.id === 'pocketsphinx'
          ? await offline(() => recognise(engine, bytes, signal))
          : await recognise(engine, bytes, signal)
      ).trim()
      if (!text) throw new AppError('unprocessable:audio', 'No speech was heard in the recording.')
      return text
    },
  }
}
