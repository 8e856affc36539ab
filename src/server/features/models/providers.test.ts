import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { parseEnv } from '#server/env.ts'
import { readEvents, replyText } from '../../../../tests/helpers/chat.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { type AiStandIn, startAiStandIn } from '../../../../tests/stand-ins/ai-providers.ts'
import { allModes, defaultChatModel } from './availability.ts'
import { createModelRegistry } from './registry.ts'

let ai: AiStandIn
beforeAll(async () => {
  ai = await startAiStandIn()
})
afterAll(() => ai.close())
beforeEach(() => ai.reset())

async function sendOnce(t: TestApp, json: Record<string, unknown>) {
  const { cookie } = await t.signUp()
  return readEvents(
    await t.request('/api/messages', { method: 'POST', cookie, json: { content: 'hi there', ...json } }),
  )
}

describe('every provider configured', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({
      GEMINI_API_KEY: 'test',
      GEMINI_BASE_URL: ai.geminiBaseUrl,
      GEMINI_MODEL_PRO: 'gemini-custom-pro',
      OPENAI_API_KEY: 'test',
      OPENAI_BASE_URL: ai.openaiBaseUrl,
      ECO_BASE_URL: ai.openaiBaseUrl,
      ECO_MODEL: 'loris-eco',
      // The stand-in wants a bearer token on every OpenAI-style call; Ollama would need none.
      ECO_API_KEY: 'test',
    })
  })
  afterAll(() => t.close())

  it('chatgpt goes to OpenAI Chat Completions with OPENAI_MODEL and the system prompt', async () => {
    const events = await sendOnce(t, { useOpenAI: true, isEcoMode: true })
    expect(replyText(events)).toBe('Echo: hi there\n(history: 1 messages, system: yes)')
    expect(ai.requests.map((r) => [r.path, r.model])).toEqual([['/v1/chat/completions', 'gpt-3.5-turbo']])
    const body = ai.requests[0]?.body as { messages: { role: string }[]; stream: boolean }
    expect(body.stream).toBe(true)
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user'])
  })

  it('loris goes to the OpenAI-compatible eco endpoint', async () => {
    const events = await sendOnce(t, { isEcoMode: true })
    expect(events.at(-1)?.done).toBe(true)
    expect(ai.requests.map((r) => [r.path, r.model])).toEqual([['/v1/chat/completions', 'loris-eco']])
    // Token counts are asked for: the CO2 estimate needs them.
    expect((ai.requests[0]?.body as { stream_options?: unknown } | undefined)?.stream_options).toEqual({
      include_usage: true,
    })
  })

  it('gemini model ids follow the environment', async () => {
    await sendOnce(t, {})
    expect(ai.requests.map((r) => r.model)).toEqual(['gemini-custom-pro'])
  })
})

describe('Gemini only', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ GEMINI_API_KEY: 'test', GEMINI_BASE_URL: ai.geminiBaseUrl })
  })
  afterAll(() => t.close())

  // docs/decisions/020: the eco mode is our own model, never a smaller Gemini in disguise.
  it('loris is not available and never falls back to Gemini', async () => {
    const events = await sendOnce(t, { isEcoMode: true })
    expect(events).toEqual([
      {
        error: 'The Loris eco model is not available on this server',
        code: 'service_unavailable:provider',
        status: 'failed',
      },
    ])
    expect(ai.requests).toEqual([])
  })
})

describe('availability', () => {
  const env = (vars: Record<string, string>) => parseEnv({ NODE_ENV: 'test', ...vars })
  const ENV_NAME = /\b[A-Z][A-Z0-9]+_[A-Z0-9_]+\b/

  it('says in plain words what this server lacks, never a variable name', () => {
    const modes = allModes(env({ ECO_ENGINE: 'off' }))
    expect(modes).toEqual({
      gemini: { available: false, reason: 'Gemini is not available on this server' },
      loris: { available: false, reason: 'The Loris eco model is not available on this server' },
      chatgpt: { available: false, reason: 'ChatGPT is not available on this server' },
    })
    expect(JSON.stringify(modes)).not.toMatch(ENV_NAME)
    expect(defaultChatModel(modes)).toBeNull()
  })

  it('the eco mode runs in process unless the engine is off; a failed preparation makes it unavailable', () => {
    expect(allModes(env({})).loris).toEqual({ available: true, reason: null })
    expect(allModes(env({ ECO_MODEL_FILE: '/srv/models/eco.gguf' })).loris.available).toBe(true)
    const failed = {
      state: 'failed',
      bytes: null,
      totalBytes: null,
      percent: null,
      failure: 'offline',
    } as const
    const loris = allModes(env({}), failed).loris
    expect(loris.available).toBe(false)
    expect(loris.reason).toContain('cannot reach the internet')
    expect(loris.reason).not.toMatch(ENV_NAME)
  })

  it('refuses a half-configured eco endpoint rather than running another model', () => {
    const modes = allModes(env({ GEMINI_API_KEY: 'k', ECO_BASE_URL: 'http://127.0.0.1:11434/v1' }))
    expect(modes.loris).toEqual({
      available: false,
      reason: 'The Loris eco model is not available on this server',
    })
  })

  it('the default mode: gemini, else loris, else chatgpt, else none', () => {
    const def = (vars: Record<string, string>) => defaultChatModel(allModes(env(vars)))
    expect(def({ GEMINI_API_KEY: 'k', OPENAI_API_KEY: 'k' })).toBe('gemini')
    expect(def({ OPENAI_API_KEY: 'k' })).toBe('loris')
    expect(def({ OPENAI_API_KEY: 'k', ECO_ENGINE: 'off' })).toBe('chatgpt')
    expect(
      def({ ECO_BASE_URL: 'http://127.0.0.1:11434/v1', ECO_MODEL: 'qwen2.5:0.5b', ECO_ENGINE: 'off' }),
    ).toBe('loris')
    expect(def({ ECO_ENGINE: 'off' })).toBeNull()
  })

  it('resolves exactly the available modes', () => {
    const registry = createModelRegistry(env({ OPENAI_API_KEY: 'k', ECO_ENGINE: 'off' }))
    expect(registry.resolve('chatgpt', 'pro')).toMatchObject({ provider: 'openai', modelId: 'gpt-3.5-turbo' })
    expect(() => registry.resolve('gemini', 'pro')).toThrow('Gemini is not available on this server')
    expect(() => registry.resolve('loris', 'pro')).toThrow(
      'The Loris eco model is not available on this server',
    )
  })
})
