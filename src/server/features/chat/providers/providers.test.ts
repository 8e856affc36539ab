import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { parseEnv } from '#server/env.ts'
import { readEvents, replyText } from '../../../../../tests/helpers/chat.ts'
import { createTestApp, type TestApp } from '../../../../../tests/helpers/test-app.ts'
import { type AiStandIn, startAiStandIn } from '../../../../../tests/stand-ins/ai-providers.ts'
import { allModes } from './availability.ts'
import { createProviderRegistry } from './registry.ts'

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

  it('loris falls back to the smallest Gemini model', async () => {
    const events = await sendOnce(t, { isEcoMode: true })
    expect(events.at(-1)?.done).toBe(true)
    expect(ai.requests.map((r) => r.model)).toEqual(['gemini-2.5-flash-lite'])
  })
})

describe('availability', () => {
  const env = (vars: Record<string, string>) => parseEnv({ NODE_ENV: 'test', ...vars })

  it('names the variable to set for each missing provider', () => {
    expect(allModes(env({}))).toEqual({
      gemini: { available: false, reason: 'Gemini is not configured on this server (set GEMINI_API_KEY)' },
      loris: {
        available: false,
        reason: 'The Loris eco model is not configured (set ECO_BASE_URL and ECO_MODEL, or GEMINI_API_KEY)',
      },
      chatgpt: { available: false, reason: 'ChatGPT is not configured on this server (set OPENAI_API_KEY)' },
    })
  })

  it('refuses a half-configured eco endpoint rather than silently using Gemini', () => {
    const modes = allModes(env({ GEMINI_API_KEY: 'k', ECO_BASE_URL: 'http://127.0.0.1:11434/v1' }))
    expect(modes.loris).toEqual({
      available: false,
      reason:
        'The Loris eco model is half configured (set both ECO_BASE_URL and ECO_MODEL; ECO_MODEL is missing)',
    })
  })

  it('resolves exactly the available modes', () => {
    const registry = createProviderRegistry(env({ OPENAI_API_KEY: 'k' }))
    expect(registry.resolve('chatgpt', 'pro')).toMatchObject({ provider: 'openai', modelId: 'gpt-3.5-turbo' })
    expect(() => registry.resolve('gemini', 'pro')).toThrow('set GEMINI_API_KEY')
    expect(() => registry.resolve('loris', 'pro')).toThrow(
      'set ECO_BASE_URL and ECO_MODEL, or GEMINI_API_KEY',
    )
  })
})
