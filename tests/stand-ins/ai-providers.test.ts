import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createMistral } from '@ai-sdk/mistral'
import { createOpenAI } from '@ai-sdk/openai'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import {
  APICallError,
  generateText,
  type LanguageModel,
  type ModelMessage,
  streamText,
  experimental_transcribe as transcribe,
} from 'ai'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type AiStandIn, startAiStandIn } from './ai-providers.ts'

let standIn: AiStandIn
beforeAll(async () => {
  standIn = await startAiStandIn()
})
afterAll(() => standIn.close())
beforeEach(() => standIn.reset())

// The factories the app uses, pointed at the stand-in exactly as the app would be configured.
const models = {
  gemini: () =>
    createGoogleGenerativeAI({ apiKey: 'test', baseURL: standIn.geminiBaseUrl })('gemini-2.5-flash'),
  openai: () => createOpenAI({ apiKey: 'test', baseURL: standIn.openaiBaseUrl }).chat('gpt-3.5-turbo'),
  eco: () =>
    createOpenAICompatible({ name: 'eco', baseURL: standIn.openaiBaseUrl, apiKey: 'x', includeUsage: true })(
      'loris-eco',
    ),
  anthropic: () =>
    createAnthropic({ apiKey: 'test', baseURL: standIn.anthropicBaseUrl })('claude-haiku-4-5-20251001'),
  mistral: () => createMistral({ apiKey: 'test', baseURL: standIn.mistralBaseUrl })('mistral-small-latest'),
}
const providers = Object.keys(models) as (keyof typeof models)[]

const say = (text: string): ModelMessage[] => [{ role: 'user', content: text }]
const echoOf = (text: string, extra = '') => `Echo: ${text}\n${extra}(history: 1 messages, system: no)`

async function run(model: LanguageModel, messages: ModelMessage[], system?: string) {
  // maxRetries 0: the SDK would otherwise retry a 500 with seconds of backoff.
  const result = streamText({ model, messages, system, maxRetries: 0, onError: () => {} })
  const deltas: string[] = []
  const errors: unknown[] = []
  let finish: { finishReason: string; inputTokens?: number; outputTokens?: number } | undefined
  try {
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') deltas.push(part.text)
      if (part.type === 'error') errors.push(part.error)
      if (part.type === 'finish') finish = { finishReason: part.finishReason, ...part.totalUsage }
    }
  } catch (error) {
    // A broken connection is not an error part: the SDK rethrows it from the stream itself.
    errors.push(error)
  }
  return { text: deltas.join(''), deltas, errors, finish }
}

function silentWav(samples = 800): Uint8Array {
  const wav = Buffer.alloc(44 + samples * 2)
  wav.write('RIFF', 0)
  wav.writeUInt32LE(36 + samples * 2, 4)
  wav.write('WAVEfmt ', 8)
  wav.writeUInt32LE(16, 16)
  wav.writeUInt16LE(1, 20)
  wav.writeUInt16LE(1, 22)
  wav.writeUInt32LE(8000, 24)
  wav.writeUInt32LE(16000, 28)
  wav.writeUInt16LE(2, 32)
  wav.writeUInt16LE(16, 34)
  wav.write('data', 36)
  wav.writeUInt32LE(samples * 2, 40)
  return new Uint8Array(wav)
}

const png = new Uint8Array(1234)
png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

describe.each(providers)('%s through the real SDK', (provider) => {
  it('streams the echo in several chunks with usage', async () => {
    const { text, deltas, errors, finish } = await run(models[provider](), say('hello loris'))
    const expected = echoOf('hello loris')
    expect(errors).toEqual([])
    expect(text).toBe(expected)
    expect(deltas.length).toBeGreaterThanOrEqual(3)
    expect(finish).toMatchObject({
      finishReason: 'stop',
      inputTokens: Math.ceil('hello loris'.length / 4),
      outputTokens: Math.ceil(expected.length / 4),
    })
  })

  it('sees the system prompt, the history and an image part', async () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'Echo: first' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is this?' },
          { type: 'file', data: png, mediaType: 'image/png' },
        ],
      },
    ]
    const { text } = await run(models[provider](), messages, 'be brief')
    expect(text).toBe('Echo: what is this?\n[image image/png 1234 bytes]\n(history: 3 messages, system: yes)')
    expect(JSON.stringify(standIn.requests.at(-1)?.body)).toContain(Buffer.from(png).toString('base64'))
  })

  it('answers upstream-error with a 500 before any text', async () => {
    standIn.setScenario('upstream-error')
    const { text, errors } = await run(models[provider](), say('hi'))
    expect(text).toBe('')
    expect(APICallError.isInstance(errors[0])).toBe(true)
    expect(errors[0]).toMatchObject({ statusCode: 500 })
  })

  it('breaks the connection mid-stream after some text', async () => {
    standIn.setScenario('error-mid-stream')
    const { text, errors, finish } = await run(models[provider](), say('one two three four five six'))
    expect(errors.length).toBeGreaterThan(0)
    expect(text.length).toBeGreaterThan(0)
    expect(echoOf('one two three four five six').startsWith(text)).toBe(true)
    expect(text).not.toContain('(history')
    expect(finish?.finishReason).not.toBe('stop')
  })

  it('streams an empty reply', async () => {
    standIn.setScenario('empty')
    const { text, errors, finish } = await run(models[provider](), say('anything'))
    expect(errors).toEqual([])
    expect(text).toBe('')
    expect(finish).toMatchObject({ finishReason: 'stop', outputTokens: 0 })
  })

  it('lets a marker in the last user message override the scenario', async () => {
    standIn.setScenario('upstream-error')
    const ok = await run(models[provider](), say('[[scenario:normal]] fine'))
    expect(ok.text).toBe(echoOf('[[scenario:normal]] fine'))
    standIn.setScenario('normal')
    const failed = await run(models[provider](), say('please [[scenario:upstream-error]]'))
    expect(failed.errors[0]).toMatchObject({ statusCode: 500 })
  })

  it('answers non-streaming calls', async () => {
    const result = await generateText({ model: models[provider](), prompt: 'plain call', maxRetries: 0 })
    expect(result.text).toBe(echoOf('plain call'))
    expect(result.usage.outputTokens).toBe(Math.ceil(echoOf('plain call').length / 4))
  })
})

describe('scenario details', () => {
  it('slow streams at least 12 chunks at the configured pace', async () => {
    standIn.setChunkDelayMs(15)
    const started = Date.now()
    const { deltas, text } = await run(models.openai(), say('[[scenario:slow]] take your time'))
    expect(deltas.length).toBeGreaterThanOrEqual(12)
    expect(text.startsWith(echoOf('[[scenario:slow]] take your time'))).toBe(true)
    expect(Date.now() - started).toBeGreaterThanOrEqual(11 * 15)
  })

  it('non-streaming calls break mid-body and answer empty', async () => {
    const call = (prompt: string) => generateText({ model: models.openai(), prompt, maxRetries: 0 })
    await expect(call('[[scenario:error-mid-stream]] hi')).rejects.toThrow()
    const empty = await call('[[scenario:empty]] hi')
    expect(empty.text).toBe('')
    expect(empty.usage.outputTokens).toBe(0)
  })

  it('generateText throws the upstream error', async () => {
    standIn.setScenario('upstream-error')
    await expect(generateText({ model: models.gemini(), prompt: 'hi', maxRetries: 0 })).rejects.toMatchObject(
      {
        statusCode: 500,
      },
    )
  })
})

describe('recording and auth', () => {
  it('records provider, path, model, body and headers', async () => {
    await run(models.gemini(), say('record me'))
    await run(models.eco(), say('and me'))
    const [gemini, eco] = standIn.requests
    expect(gemini).toMatchObject({
      provider: 'gemini',
      path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
      model: 'gemini-2.5-flash',
      headers: { 'x-goog-api-key': 'test' },
    })
    expect(eco).toMatchObject({
      provider: 'openai',
      path: '/v1/chat/completions',
      model: 'loris-eco',
      body: { stream: true, stream_options: { include_usage: true } },
      headers: { authorization: 'Bearer x' },
    })
  })

  it('rejects an OpenAI-style call without a key', async () => {
    const keyless = createOpenAICompatible({ name: 'eco', baseURL: standIn.openaiBaseUrl })('loris-eco')
    const call = generateText({ model: keyless, prompt: 'hi', maxRetries: 0 })
    await expect(call).rejects.toMatchObject({ statusCode: 401, message: 'Missing or invalid API key.' })
  })

  it('rejects an Anthropic call without x-api-key in its error shape', async () => {
    const res = await fetch(`${standIn.anthropicBaseUrl}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-haiku-4-5-20251001', messages: [] }),
    })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'Missing or invalid API key.' },
    })
  })

  it('rejects a Gemini call without a key in its error shape', async () => {
    const response = await fetch(`${standIn.geminiBaseUrl}/models/gemini-2.5-flash:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [] }),
    })
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } })
  })

  it('lists OpenAI models', async () => {
    const response = await fetch(`${standIn.openaiBaseUrl}/models`, {
      headers: { authorization: 'Bearer t' },
    })
    const body = (await response.json()) as { data: { id: string }[] }
    expect(body.data.map((model) => model.id)).toContain('whisper-1')
  })
})

describe('audio', () => {
  const audioMessage = (text: string): ModelMessage[] => [
    {
      role: 'user',
      content: [
        { type: 'text', text },
        { type: 'file', data: silentWav(), mediaType: 'audio/wav' },
      ],
    },
  ]

  it('transcribes with OpenAI whisper-1', async () => {
    standIn.setTranscript('turn left at the lake')
    const openai = createOpenAI({ apiKey: 'test', baseURL: standIn.openaiBaseUrl })
    const result = await transcribe({
      model: openai.transcription('whisper-1'),
      audio: silentWav(),
      maxRetries: 0,
    })
    expect(result.text).toBe('turn left at the lake')
    expect(standIn.requests.at(-1)).toMatchObject({
      path: '/v1/audio/transcriptions',
      model: 'whisper-1',
      body: {
        fields: { model: 'whisper-1' },
        files: [{ field: 'file', contentType: 'audio/wav', bytes: 1644 }],
      },
    })
  })

  it('honours verbose_json and the upstream-error scenario for transcription', async () => {
    const openai = createOpenAI({ apiKey: 'test', baseURL: standIn.openaiBaseUrl })
    const model = openai.transcription('whisper-1')
    const options = { openai: { language: 'en' } }
    const result = await transcribe({ model, audio: silentWav(), providerOptions: options, maxRetries: 0 })
    expect(result.text).toBe('go forward ten meters')
    expect(result.segments).toHaveLength(1)
    expect(standIn.requests.at(-1)?.body).toMatchObject({ fields: { response_format: 'verbose_json' } })
    standIn.setScenario('upstream-error')
    await expect(transcribe({ model, audio: silentWav(), maxRetries: 0 })).rejects.toMatchObject({
      statusCode: 500,
    })
  })

  it('answers a non-streaming Gemini call with inline audio with the transcript', async () => {
    const result = await generateText({
      model: models.gemini(),
      messages: audioMessage('Transcribe.'),
      maxRetries: 0,
    })
    expect(result.text).toBe('go forward ten meters')
  })

  it('transcribes with google.transcription() (interactions endpoint)', async () => {
    const google = createGoogleGenerativeAI({ apiKey: 'test', baseURL: standIn.geminiBaseUrl })
    const model = google.transcription('gemini-3.5-transcribe')
    const result = await transcribe({ model, audio: silentWav(), maxRetries: 0 })
    expect(result.text).toBe('go forward ten meters')
  })

  it('describes audio in a streamed chat instead of transcribing it', async () => {
    const { text } = await run(models.openai(), audioMessage('listen'))
    expect(text).toBe(echoOf('listen', '[audio audio/wav 1644 bytes]\n'))
  })
})
