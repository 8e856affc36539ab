import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { parseEnv } from '#server/env.ts'
import { buildConfig } from '#server/features/system/config.ts'
import { AppError } from '#server/lib/app-error.ts'
import { type AiStandIn, startAiStandIn } from '../../../../tests/stand-ins/ai-providers.ts'
import { chooseEngine, defaultTools } from './engines.ts'
import { createTranscriber, VOICE_UNAVAILABLE } from './transcriber.ts'

const fixture = async (name: string) => new Uint8Array(await readFile(join('tests/fixtures', name)))
const log = pino({ level: 'silent' })
const env = (vars: Record<string, string> = {}) => parseEnv({ NODE_ENV: 'test', ...vars })

let tmpRoot: string
let ai: AiStandIn
beforeAll(async () => {
  ai = await startAiStandIn()
})
afterAll(() => ai.close())
beforeEach(async () => {
  ai.reset()
  tmpRoot = await mkdtemp(join(tmpdir(), 'loris-voice-test-'))
  return () => rm(tmpRoot, { recursive: true, force: true })
})

async function failure(work: Promise<unknown>): Promise<AppError> {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  )
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`)
  return err
}

describe('the offline engine (pocketsphinx)', () => {
  const offline = () => createTranscriber(env({ TRANSCRIBE_ENGINE: 'pocketsphinx' }), { log, tmpRoot })

  it('hears the words in a browser recording and leaves no temp files', async () => {
    expect(await offline().transcribe(await fixture('goforward.webm'))).toBe('go forward ten meters')
    expect(await readdir(tmpRoot)).toEqual([])
  })

  it('reads WAV too', async () => {
    expect(await offline().transcribe(await fixture('goforward.wav'))).toBe('go forward ten meters')
  })

  it.each([
    ['silence.webm', 422, 'No speech was heard in the recording.'],
    ['not-audio.webm', 422, 'The recording could not be decoded. Please record again.'],
    ['image.png', 422, 'The recording could not be decoded. Please record again.'],
    ['long.webm', 413, 'Recordings can be at most 2 minutes long. Please record a shorter message.'],
  ])('refuses %s with %i and removes its temp files', async (name, status, message) => {
    const err = await failure(offline().transcribe(await fixture(name)))
    expect([err.status, err.message]).toEqual([status, message])
    expect(await readdir(tmpRoot)).toEqual([])
  })

  it('refuses an empty upload', async () => {
    const err = await failure(offline().transcribe(new Uint8Array()))
    expect([err.status, err.message]).toEqual([422, 'The recording is empty.'])
  })
})

describe('choosing an engine', () => {
  it('prefers OpenAI, then Gemini, then the offline engine', () => {
    expect(chooseEngine(env({ OPENAI_API_KEY: 'k', GEMINI_API_KEY: 'k' })).id).toBe('openai')
    expect(chooseEngine(env({ GEMINI_API_KEY: 'k' })).id).toBe('gemini')
    expect(chooseEngine(env()).id).toBe('pocketsphinx')
  })

  it('honours TRANSCRIBE_ENGINE and says what a forced engine lacks', () => {
    expect(chooseEngine(env({ OPENAI_API_KEY: 'k', TRANSCRIBE_ENGINE: 'pocketsphinx' })).id).toBe(
      'pocketsphinx',
    )
    expect(chooseEngine(env({ TRANSCRIBE_ENGINE: 'openai' }))).toEqual({
      id: null,
      reason: 'TRANSCRIBE_ENGINE=openai needs OPENAI_API_KEY.',
    })
    expect(chooseEngine(env({ TRANSCRIBE_ENGINE: 'gemini' })).reason).toBe(
      'TRANSCRIBE_ENGINE=gemini needs GEMINI_API_KEY.',
    )
  })

  // People read plain words; the package to install goes to the operator's start-up table.
  it('answers 503 in plain words when the offline engine is not installed', async () => {
    const tools = { ...defaultTools, pocketsphinx: 'pocketsphinx_not_installed' }
    const transcriber = createTranscriber(env({ TRANSCRIBE_ENGINE: 'pocketsphinx' }), { log, tools, tmpRoot })
    expect(transcriber.availability()).toEqual({ available: false, reason: VOICE_UNAVAILABLE })
    const err = await failure(transcriber.transcribe(await fixture('goforward.webm')))
    expect([err.status, err.message]).toEqual([503, VOICE_UNAVAILABLE])
    expect(chooseEngine(env({ TRANSCRIBE_ENGINE: 'pocketsphinx' }), tools).reason).toContain(
      'apt-get install pocketsphinx pocketsphinx-en-us',
    )
  })

  it('answers 503 in plain words when ffmpeg is missing, whatever the engine', async () => {
    const tools = { ...defaultTools, ffmpeg: 'ffmpeg_not_installed' }
    const transcriber = createTranscriber(env({ OPENAI_API_KEY: 'k' }), { log, tools, tmpRoot })
    const err = await failure(transcriber.transcribe(await fixture('goforward.webm')))
    expect([err.status, err.message]).toEqual([503, VOICE_UNAVAILABLE])
    expect(chooseEngine(env({ OPENAI_API_KEY: 'k' }), tools).reason).toBe(
      'Voice input needs ffmpeg on the server: install it (apt-get install ffmpeg).',
    )
  })
})

describe('GET /api/config transcription', () => {
  it('is unavailable, in plain words, when the forced engine cannot run', () => {
    expect(buildConfig(env({ TRANSCRIBE_ENGINE: 'openai' })).transcription).toEqual({
      available: false,
      reason: VOICE_UNAVAILABLE,
    })
    expect(buildConfig(env({ TRANSCRIBE_ENGINE: 'pocketsphinx' })).transcription).toEqual({
      available: true,
      reason: null,
    })
  })
})

describe('hosted engines, through the real AI SDK against the stand-in', () => {
  it('OpenAI transcription gets the decoded audio and the configured model', async () => {
    ai.setTranscript('plant a tree today')
    const transcriber = createTranscriber(
      env({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: ai.openaiBaseUrl, TRANSCRIBE_MODEL: 'whisper-1' }),
      { log, tmpRoot },
    )
    expect(await transcriber.transcribe(await fixture('goforward.webm'))).toBe('plant a tree today')
    const request = ai.requests.find((r) => r.path === '/v1/audio/transcriptions')
    expect(request?.model).toBe('whisper-1')
    expect(await readdir(tmpRoot)).toEqual([])
  })

  it('Gemini is asked to transcribe the audio verbatim', async () => {
    ai.setTranscript('plant a tree today')
    const transcriber = createTranscriber(env({ GEMINI_API_KEY: 'k', GEMINI_BASE_URL: ai.geminiBaseUrl }), {
      log,
      tmpRoot,
    })
    expect(await transcriber.transcribe(await fixture('goforward.webm'))).toBe('plant a tree today')
    const body = JSON.stringify(ai.requests.at(-1)?.body)
    expect(body).toContain('Transcribe this audio verbatim')
    expect(body).toContain('audio/wav')
  })

  it('an engine failure is a 502 with a message, and still leaves no temp files', async () => {
    ai.setScenario('upstream-error')
    const transcriber = createTranscriber(env({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: ai.openaiBaseUrl }), {
      log,
      tmpRoot,
    })
    const err = await failure(transcriber.transcribe(await fixture('goforward.webm')))
    expect([err.status, err.message]).toEqual([502, 'Transcription failed. Please try again.'])
    expect(await readdir(tmpRoot)).toEqual([])
  })
})
