// GET /api/chat/next-model: the Consumption tab names the model that really answers.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nextModelResponse } from '#contract/messages.ts'
import { users } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { type AiStandIn, startAiStandIn } from '../../../../tests/stand-ins/ai-providers.ts'

let ai: AiStandIn
let hosted: TestApp
let ecoOnly: TestApp
beforeAll(async () => {
  ai = await startAiStandIn()
  hosted = await createTestApp({
    GEMINI_API_KEY: 'test',
    GEMINI_BASE_URL: ai.geminiBaseUrl,
    OPENAI_API_KEY: 'test',
    OPENAI_BASE_URL: ai.openaiBaseUrl,
  })
  // No Gemini: only our own eco model answers.
  ecoOnly = await createTestApp({
    ECO_BASE_URL: ai.openaiBaseUrl,
    ECO_MODEL: 'HuggingFaceTB/SmolLM2-360M-Instruct',
    ECO_API_KEY: 'test',
  })
})
afterAll(async () => {
  await hosted.close()
  await ecoOnly.close()
  await ai.close()
})

async function next(t: TestApp, cookie: string, mode: string) {
  const res = await t.request(`/api/chat/next-model?mode=${mode}`, { cookie })
  expect(res.status).toBe(200)
  return nextModelResponse.parse(await res.json())
}

describe('GET /api/chat/next-model', () => {
  it('names the model each mode is answered with, following the usage tier', async () => {
    const { cookie, user } = await hosted.signUp()
    expect(await next(hosted, cookie, 'gemini')).toEqual({
      available: true,
      chatModel: 'gemini',
      modelId: 'gemini-2.5-pro',
      modelName: 'Gemini 2.5 Pro',
      limitExceeded: false,
    })
    expect((await next(hosted, cookie, 'chatgpt')).modelName).toBe('GPT-3.5 Turbo')
    // No eco model on this server (it never falls back to Gemini): the default mode answers.
    expect(await next(hosted, cookie, 'loris')).toMatchObject({
      chatModel: 'gemini',
      modelName: 'Gemini 2.5 Pro',
    })

    const db = hosted.deps.database.db
    await db
      .update(users)
      .set({ aiInputChars: 20_000 })
      .where(eq(users.id, user.id as string))
    expect((await next(hosted, cookie, 'gemini')).modelName).toBe('Gemini 2.5 Flash Lite')
    await db
      .update(users)
      .set({ aiInputChars: 100_000 })
      .where(eq(users.id, user.id as string))
    expect((await next(hosted, cookie, 'gemini')).limitExceeded).toBe(true)
  })

  it('on a server without Gemini, says Loris eco answers', async () => {
    const { cookie } = await ecoOnly.signUp()
    expect(await next(ecoOnly, cookie, 'gemini')).toEqual({
      available: true,
      chatModel: 'loris',
      modelId: 'HuggingFaceTB/SmolLM2-360M-Instruct',
      modelName: 'Loris eco (SmolLM2 360M)',
      limitExceeded: false,
    })
  })

  it('refuses a visitor and an unknown mode', async () => {
    expect((await hosted.request('/api/chat/next-model?mode=gemini')).status).toBe(401)
    const { cookie } = await hosted.signUp()
    const bad = await hosted.request('/api/chat/next-model?mode=gpt5', { cookie })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ code: expect.stringMatching(/^bad_request/) })
  })
})
