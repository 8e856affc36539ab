import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ChatEvent } from '#contract/chat-events.ts'
import type { Message } from '#contract/messages.ts'
import { modelsResponseSchema } from '#contract/models.ts'
import { parseEnv } from '#server/env.ts'
import { startupRows } from '#server/features/system/startup-report.ts'
import { readEvents, replyText, settled } from '../../../../tests/helpers/chat.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { type AiStandIn, catalogueEnv, startAiStandIn } from '../../../../tests/stand-ins/ai-providers.ts'
import { loadCatalogue } from './catalogue.ts'

let ai: AiStandIn
let dir: string
beforeAll(async () => {
  ai = await startAiStandIn()
  dir = await mkdtemp(join(tmpdir(), 'loris-models-'))
})
afterAll(() => ai.close())
beforeEach(() => ai.reset())

const env = (vars: Record<string, string>) => parseEnv({ NODE_ENV: 'test', ECO_ENGINE: 'off', ...vars })

async function modelsFile(name: string, body: unknown): Promise<string> {
  const path = join(dir, name)
  await writeFile(path, typeof body === 'string' ? body : JSON.stringify(body))
  return path
}

const doneOf = (events: ChatEvent[]) => events.find((e) => e.done)

async function shownMessages(t: TestApp, cookie: string, threadId: string): Promise<Message[]> {
  const res = await t.request(`/api/messages?threadId=${threadId}`, { cookie })
  expect(res.status).toBe(200)
  return ((await res.json()) as { items: Message[] }).items
}

describe('providers beside the modes', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(catalogueEnv(ai))
  })
  afterAll(() => t.close())

  it("GET /api/models lists the keys' small and mid models and the endpoints', each with its footprint", async () => {
    const { cookie } = await t.signUp()
    const res = await t.request('/api/models', { cookie })
    expect(res.status).toBe(200)
    const body = modelsResponseSchema.parse(await res.json())
    expect(body.models.map((m) => [m.id, m.family, m.provider])).toEqual([
      ['claude-haiku-4-5-20251001', 'claude', 'anthropic'],
      ['claude-sonnet-4-5-20250929', 'claude', 'anthropic'],
      ['mistral-small-latest', 'mistral', 'mistral'],
      ['mistral-medium-latest', 'mistral', 'mistral'],
      ['qwen2.5:7b', 'other', 'ollama'],
    ])
    const haiku = body.models[0]
    const sonnet = body.models[1]
    expect(haiku?.name).toBe('Claude Haiku 4.5')
    // Priced by EcoLogits: the mid model emits more per reply than the small one.
    expect(haiku?.typicalReplyGrams).toBeGreaterThan(0)
    expect(sonnet?.typicalReplyGrams).toBeGreaterThan(haiku?.typicalReplyGrams ?? 0)
    // An endpoint's model the method does not know, without a size: no made-up number.
    expect(body.models[4]?.gramsPerToken).toBeNull()
    expect(body.modes.find((m) => m.mode === 'gemini')?.gramsPerToken).toBeGreaterThan(0)
    expect(await t.request('/api/models')).toHaveProperty('status', 401)
  })

  it.each([
    ['claude-haiku-4-5-20251001', '/anthropic/v1/messages', 'claude', 'Claude Haiku 4.5'],
    ['mistral-small-latest', '/mistral/v1/chat/completions', 'mistral', 'Mistral Small'],
    ['qwen2.5:7b', '/v1/chat/completions', 'other', 'Qwen2.5 7b'],
  ])('a send naming %s is answered by it over its own wire format', async (model, path, family, name) => {
    const { cookie } = await t.signUp()
    const res = await t.request('/api/messages', {
      method: 'POST',
      cookie,
      json: { content: 'hi there', model },
    })
    const events = await readEvents(res)
    expect(replyText(events)).toBe('Echo: hi there\n(history: 1 messages, system: yes)')
    expect(ai.requests.map((r) => [r.path, r.model])).toEqual([[path, model]])
    const done = doneOf(events)
    const row = await settled(t.deps.database.db, String(done?.id))
    expect(row).toMatchObject({ status: 'complete', chatModel: family, modelId: model })
    // Priced like any reply when the method knows the model.
    if (family !== 'other') expect(row?.co2Impact).not.toBeNull()
    const [shown] = await shownMessages(t, cookie, String(done?.threadId))
    expect(shown).toMatchObject({ chatModel: family, modelName: name })
  })

  it('refuses a model this server does not have, naming it', async () => {
    const { cookie } = await t.signUp()
    const res = await t.request('/api/messages', {
      method: 'POST',
      cookie,
      json: { content: 'hi', model: 'gpt-9' },
    })
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({
      code: 'not_found:model',
      message: 'There is no model gpt-9 on this server',
    })
    expect(ai.requests).toEqual([])
  })
})

describe('the models file', () => {
  it('narrows a plan, adds an endpoint model with its size and marks the eco pool', async () => {
    const file = await modelsFile('narrow.json', {
      models: [
        { id: 'claude-sonnet-4-5-20250929', provider: 'anthropic', plans: ['premium'] },
        { id: 'claude-haiku-4-5-20251001', provider: 'anthropic', enabled: false },
        { id: 'llava:7b', provider: 'local', name: 'LLaVA 7B', vision: true, paramsB: 7, eco: true },
      ],
    })
    const catalogue = loadCatalogue(
      env({
        ANTHROPIC_API_KEY: 'k',
        OPENAI_COMPATIBLE_ENDPOINTS: JSON.stringify([
          { name: 'local', baseURL: 'http://127.0.0.1:11434/v1' },
        ]),
        LORIS_MODELS_FILE: file,
      }),
    )
    expect(catalogue.models.map((m) => [m.id, m.plans, m.eco])).toEqual([
      ['claude-sonnet-4-5-20250929', ['premium'], false],
      ['llava:7b', ['free', 'premium'], true],
    ])
    const llava = catalogue.models[1]
    expect(llava).toMatchObject({ name: 'LLaVA 7B', impactProvider: 'self', capabilities: { vision: true } })
    expect(llava?.gramsPerToken).toBeGreaterThan(0)
  })

  it('stops the start with every problem, in words an operator can act on', async () => {
    const file = await modelsFile('bad.json', {
      models: [
        { id: 'x', provider: 'nowhere' },
        { id: 'mistral-small-latest', provider: 'mistral' },
        { id: '', provider: 'anthropic', colour: 'red' },
      ],
    })
    const load = () => loadCatalogue(env({ LORIS_MODELS_FILE: file }))
    expect(load).toThrow(/LORIS_MODELS_FILE models\.2\.id: id is the model id the provider is sent/)
    expect(load).toThrow(/Unrecognized key: "colour"/)
    const fixable = await modelsFile('fixable.json', {
      models: [
        { id: 'x', provider: 'nowhere' },
        { id: 'mistral-small-latest', provider: 'mistral' },
      ],
    })
    const second = () => loadCatalogue(env({ LORIS_MODELS_FILE: fixable }))
    expect(second).toThrow(
      /models\.0 \(x\): provider nowhere is not anthropic, mistral, openai, google or an endpoint/,
    )
    expect(second).toThrow(
      /models\.1 \(mistral-small-latest\): provider mistral has no API key in the environment/,
    )
    expect(() => loadCatalogue(env({ LORIS_MODELS_FILE: join(dir, 'missing.json') }))).toThrow(
      /LORIS_MODELS_FILE: cannot read/,
    )
    const notJson = await modelsFile('text.json', '{models')
    expect(() => loadCatalogue(env({ LORIS_MODELS_FILE: notJson }))).toThrow(/not JSON/)
    expect(() =>
      loadCatalogue(env({ OPENAI_COMPATIBLE_ENDPOINTS: '[{"name":"Bad Name","baseURL":"nope"}]' })),
    ).toThrow(/OPENAI_COMPATIBLE_ENDPOINTS 0\.name: name is lower-case letters/)
  })

  it('shows in the start-up table what it gives, or what is wrong', async () => {
    const row = (vars: Record<string, string>) =>
      startupRows(env(vars)).find((r) => r.feature === 'More models')
    expect(row({})).toMatchObject({ state: 'none beside the modes' })
    expect(row({ MISTRAL_API_KEY: 'k' })?.state).toBe(
      '2 model(s): mistral-small-latest, mistral-medium-latest',
    )
    const bad = await modelsFile('bad-row.json', { models: [{ id: 'x', provider: 'nowhere' }] })
    expect(row({ LORIS_MODELS_FILE: bad })).toMatchObject({ state: 'invalid' })
    expect(row({ LORIS_MODELS_FILE: bad })?.needs).toContain('provider nowhere')
  })
})

describe('plans', () => {
  let t: TestApp
  beforeAll(async () => {
    const file = await modelsFile('plans.json', {
      models: [{ id: 'claude-sonnet-4-5-20250929', provider: 'anthropic', plans: ['premium'] }],
    })
    t = await createTestApp({
      ANTHROPIC_API_KEY: 'test',
      ANTHROPIC_BASE_URL: ai.anthropicBaseUrl,
      LORIS_MODELS_FILE: file,
      ECO_ENGINE: 'off',
    })
  })
  afterAll(() => t.close())

  it('a free person neither sees nor may use a model kept for Pro', async () => {
    const { cookie } = await t.signUp()
    const listed = modelsResponseSchema.parse(await (await t.request('/api/models', { cookie })).json())
    expect(listed.models.map((m) => m.id)).toEqual(['claude-haiku-4-5-20251001'])
    const res = await t.request('/api/messages', {
      method: 'POST',
      cookie,
      json: { content: 'hi', model: 'claude-sonnet-4-5-20250929' },
    })
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({
      code: 'forbidden:model',
      message: 'Claude Sonnet 4.5 is not part of your plan',
    })
    expect(ai.requests).toEqual([])
  })
})

describe('eco routing', () => {
  let t: TestApp
  beforeAll(async () => {
    const file = await modelsFile('eco.json', {
      models: [
        { id: 'vision-small', provider: 'pool', vision: true, paramsB: 3, eco: true },
        { id: 'text-large', provider: 'pool', contextTokens: 32_000, paramsB: 70, eco: true },
      ],
    })
    t = await createTestApp({
      ECO_BASE_URL: ai.openaiBaseUrl,
      ECO_MODEL: 'loris-eco',
      ECO_API_KEY: 'test',
      ECO_MODEL_PARAMS_B: '0.5',
      OPENAI_COMPATIBLE_ENDPOINTS: JSON.stringify([
        { name: 'pool', baseURL: ai.openaiBaseUrl, apiKey: 'test' },
      ]),
      LORIS_MODELS_FILE: file,
    })
  })
  afterAll(() => t.close())

  async function ecoSend(cookie: string, body: FormData | Record<string, unknown>) {
    const init = body instanceof FormData ? { body } : { json: { isEcoMode: true, ...body } }
    const events = await readEvents(await t.request('/api/messages', { method: 'POST', cookie, ...init }))
    const done = doneOf(events)
    const row = await settled(t.deps.database.db, String(done?.id))
    const shown = (await shownMessages(t, cookie, String(done?.threadId))).at(-1)
    return { row, shown, done }
  }

  it('a short text stays on the eco model, saying why and what it saved', async () => {
    const { cookie } = await t.signUp()
    const { row, shown } = await ecoSend(cookie, { content: 'hello there' })
    expect(ai.requests.map((r) => r.model)).toEqual(['loris-eco'])
    expect(row).toMatchObject({ chatModel: 'loris', modelId: 'loris-eco' })
    expect(shown?.co2Impact?.routing?.reason).toBe('short and simple: answered by the local model')
    expect(shown?.co2Impact?.routing?.against).toBe('Text Large')
    expect(shown?.co2Impact?.routing?.savedGrams).toBeGreaterThan(0)
  })

  it('an image goes to the vision model, code one step up, a long prompt to a context that fits', async () => {
    const { cookie } = await t.signUp()
    const image = new Uint8Array(await readFile('tests/fixtures/image.png'))
    const body = new FormData()
    body.set('content', 'what is this?')
    body.set('isEcoMode', 'true')
    body.set('image', new File([image], 'image.png'))
    const seen = await ecoSend(cookie, body)
    expect(ai.requests.at(-1)?.model).toBe('vision-small')
    expect(seen.row).toMatchObject({ chatModel: 'loris', modelId: 'vision-small' })
    expect(seen.shown?.co2Impact?.routing?.reason).toBe('image: sent to a vision model')

    const code = await ecoSend(cookie, { content: 'Why does this fail?\n```js\nconst x = 1;\n```' })
    expect(ai.requests.at(-1)?.model).toBe('vision-small')
    expect(code.shown?.co2Impact?.routing?.reason).toBe('code: sent to a larger model')

    const long = await ecoSend(cookie, { content: 'Summarise this. '.repeat(700) })
    expect(ai.requests.at(-1)?.model).toBe('text-large')
    expect(long.shown?.co2Impact?.routing?.reason).toContain(
      'long prompt: sent to a model whose context fits it',
    )
  })

  it('"Ask a larger model" makes a version from the next model up the pool', async () => {
    const { cookie } = await t.signUp()
    const first = await ecoSend(cookie, { content: 'hello again' })
    expect(first.row?.modelId).toBe('loris-eco')
    const larger = await ecoSend(cookie, { regenerateOf: first.done?.id, larger: true })
    expect(larger.row).toMatchObject({
      origin: 'regenerate',
      modelId: 'vision-small',
      parentId: first.row?.parentId,
    })
    expect(larger.shown?.co2Impact?.routing?.reason).toBe('asked for a larger model')
    expect(larger.shown?.versionIds).toHaveLength(2)
    const largest = await ecoSend(cookie, { regenerateOf: larger.done?.id, larger: true })
    expect(largest.row?.modelId).toBe('text-large')
  })
})
