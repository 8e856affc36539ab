// Speech-to-text engines behind one interface, best first: OpenAI's transcription model, Gemini's
// audio understanding, and pocketsphinx offline (no key, rough on free speech: the text lands in the
// input for the user to correct). TRANSCRIBE_ENGINE forces one. docs/voice.md
import { accessSync, constants } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { delimiter, join } from 'node:path'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import { experimental_transcribe, generateText } from 'ai'
import type { Env } from '#server/env.ts'
import { AppError } from '#server/lib/app-error.ts'
import { type DecodedAudio, isMissingBinary, run } from './audio.ts'

export type EngineId = 'openai' | 'gemini' | 'pocketsphinx'

export interface TranscriptionEngine {
  id: EngineId
  transcribe(audio: DecodedAudio, signal?: AbortSignal): Promise<string>
}

/** Where the programs and the offline model live; tests point them elsewhere. */
export interface VoiceTools {
  ffmpeg: string
  pocketsphinx: string
  modelDir: string
}

export const defaultTools: VoiceTools = {
  ffmpeg: 'ffmpeg',
  pocketsphinx: 'pocketsphinx_continuous',
  modelDir: '/usr/share/pocketsphinx/model/en-us',
}

const INSTALL_POCKETSPHINX =
  'install the Debian packages pocketsphinx and pocketsphinx-en-us (apt-get install pocketsphinx pocketsphinx-en-us)'

function onPath(program: string): boolean {
  const candidates = program.includes('/')
    ? [program]
    : (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, program))
  return candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK)
      return true
    } catch {
      return false
    }
  })
}

function readable(file: string): boolean {
  try {
    accessSync(file, constants.R_OK)
    return true
  } catch {
    return false
  }
}

const modelFiles = (t: VoiceTools) => ({
  hmm: join(t.modelDir, 'en-us'),
  lm: join(t.modelDir, 'en-us.lm.bin'),
  dict: join(t.modelDir, 'cmudict-en-us.dict'),
})

function pocketsphinxMissing(t: VoiceTools): string | null {
  if (!onPath(t.pocketsphinx)) return `Offline transcription needs pocketsphinx: ${INSTALL_POCKETSPHINX}.`
  const m = modelFiles(t)
  if (![m.hmm, m.lm, m.dict].every(readable))
    return `The pocketsphinx English model is missing from ${t.modelDir}: ${INSTALL_POCKETSPHINX}.`
  return null
}

export type EngineChoice = { id: EngineId; reason: null } | { id: null; reason: string }

/** The engine this server uses, or why there is none. Checks the environment and PATH only. */
export function chooseEngine(env: Env, tools: VoiceTools = defaultTools): EngineChoice {
  if (!onPath(tools.ffmpeg))
    return {
      id: null,
      reason: 'Voice input needs ffmpeg on the server: install it (apt-get install ffmpeg).',
    }
  const forced = env.TRANSCRIBE_ENGINE
  if (forced === 'openai')
    return env.OPENAI_API_KEY
      ? { id: 'openai', reason: null }
      : { id: null, reason: 'TRANSCRIBE_ENGINE=openai needs OPENAI_API_KEY.' }
  if (forced === 'gemini')
    return env.GEMINI_API_KEY
      ? { id: 'gemini', reason: null }
      : { id: null, reason: 'TRANSCRIBE_ENGINE=gemini needs GEMINI_API_KEY.' }
  if (forced === 'auto' && env.OPENAI_API_KEY) return { id: 'openai', reason: null }
  if (forced === 'auto' && env.GEMINI_API_KEY) return { id: 'gemini', reason: null }
  const missing = pocketsphinxMissing(tools)
  if (!missing) return { id: 'pocketsphinx', reason: null }
  if (forced === 'pocketsphinx') return { id: null, reason: missing }
  return {
    id: null,
    reason: `Voice input is not configured: set OPENAI_API_KEY or GEMINI_API_KEY, or ${INSTALL_POCKETSPHINX}.`,
  }
}

const GEMINI_INSTRUCTION =
  'Transcribe this audio verbatim. Answer with the spoken words only, no comments, labels or quotes. If nothing is said, answer with nothing.'

export function createEngine(id: EngineId, env: Env, tools: VoiceTools = defaultTools): TranscriptionEngine {
  if (id === 'openai') {
    const openai = createOpenAI({ apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL })
    return {
      id,
      async transcribe(audio, signal) {
        const result = await experimental_transcribe({
          model: openai.transcription(env.TRANSCRIBE_MODEL),
          audio: await readFile(audio.wavPath),
          abortSignal: signal,
          maxRetries: 1,
        })
        return result.text
      },
    }
  }
  if (id === 'gemini') {
    const google = createGoogleGenerativeAI({ apiKey: env.GEMINI_API_KEY, baseURL: env.GEMINI_BASE_URL })
    return {
      id,
      async transcribe(audio, signal) {
        const result = await generateText({
          // The smallest Gemini model: transcription needs no reasoning, and it uses the least energy.
          model: google(env.GEMINI_MODEL_FLASH_LITE),
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: GEMINI_INSTRUCTION },
                { type: 'file', data: await readFile(audio.wavPath), mediaType: 'audio/wav' },
              ],
            },
          ],
          abortSignal: signal,
          maxRetries: 1,
        })
        return result.text
      },
    }
  }
  const m = modelFiles(tools)
  return {
    id,
    async transcribe(audio, signal) {
      try {
        const { stdout } = await run(
          tools.pocketsphinx,
          ['-infile', audio.wavPath, '-hmm', m.hmm, '-lm', m.lm, '-dict', m.dict, '-logfn', '/dev/null'],
          signal,
        )
        // One line per utterance.
        return stdout
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean)
          .join(' ')
      } catch (err) {
        if (isMissingBinary(err))
          throw new AppError(
            'service_unavailable:transcription',
            `Offline transcription needs pocketsphinx: ${INSTALL_POCKETSPHINX}.`,
          )
        throw err
      }
    },
  }
}
