// The in-process eco engine through the API: GET /api/config, POST /api/messages (streaming, Stop,
// measured CO2), GET /api/impact/local-eco, and the first-use fetch from a loopback Hugging Face.
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChatEvent } from '#contract/chat-events.ts'
import { type AppConfig, configSchema } from '#contract/config.ts'
import { localEcoFiguresSchema } from '#contract/eco-engine.ts'
import { co2ImpactSchema } from '#contract/impact.ts'
import { users } from '#server/db/schema/index.ts'
import { closeEcoEngine } from '#server/features/eco-engine/instance.ts'
import {
  eventReader,
  messageRow,
  readEvents,
  replyText,
  settled,
  waitFor,
} from '../../../../tests/helpers/chat.ts'
import { freePort } from '../../../../tests/helpers/free-port.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { type HfStandIn, startHuggingFaceStandIn } from '../../../../tests/stand-ins/huggingface.ts'

const TEST_MODEL = path.resolve(import.meta.dirname, '../../../../tests/fixtures/models/stories260K.gguf')
/** Environment variable names look like this; people must never read one. */
const ENV_NAME = /\b[A-Z][A-Z0-9]+_[A-Z0-9_]+\b/

const configOf = async (t: TestApp): Promise<AppConfig> =>
  configSchema.parse(await (await t.request('/api/config')).json())
const send = (t: TestApp, cookie: string, json: Record<string, unknown>) =>
  t.request('/api/messages', { method: 'POST', cookie, json })

describe('eco mode with the model file placed by hand (ECO_MODEL_FILE), no keys', { timeout: 60_000 }, () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({
      ECO_ENGINE: 'on',
      ECO_MODEL_FILE: TEST_MODEL,
      ECO_THREADS: '1',
      ECO_PARALLEL: '1',
    })
  })
  afterAll(async () => {
    await closeEcoEngine(t.deps.env)
    await t.close()
  })

  it('GET /api/config: loris is the default, the others are not available, in plain words', async () => {
    const config = await configOf(t)
    expect(config.defaultChatModel).toBe('loris')
    expect(config.modes).toEqual({
      gemini: { available: false, reason: 'Gemini is not available on this server' },
      loris: { available: true, reason: null },
      chatgpt: { available: false, reason: 'ChatGPT is not available on this server' },
    })
    expect(config.ecoEngine?.state).toMatch(/idle|loading|ready/)
    expect(JSON.stringify(config)).not.toMatch(ENV_NAME)
  })

  it('GET /api/impact/local-eco answers nulls until a reply has been measured', async () => {
    const res = await t.request('/api/impact/local-eco')
    expect(res.status).toBe(200)
    expect(localEcoFiguresSchema.parse(await res.json())).toMatchObject({
      inProcess: true,
      samples: 0,
      method: null,
      energyKwhPerToken: null,
      gco2eqPerToken: null,
      zone: 'WOR',
    })
  })

  it('streams a reply through POST /api/messages and stores its measured CO2', async () => {
    const { cookie } = await t.signUp()
    const events = await readEvents(await send(t, cookie, { content: 'Once upon a time', isEcoMode: true }))
    const end = events.at(-1)
    expect(end).toMatchObject({ done: true, status: 'complete' })
    const text = replyText(events)
    expect(text.length).toBeGreaterThan(0)
    expect(events.filter((e) => e.text).length).toBeGreaterThan(1)
    const row = await messageRow(t.deps.database.db, events[0]?.id as string)
    expect(row).toMatchObject({
      chatModel: 'loris',
      provider: 'self',
      modelId: 'stories260K.gguf',
      response: text,
    })
    expect(row?.outputTokens).toBeGreaterThan(0)
    const co2 = co2ImpactSchema.parse(row?.co2Impact)
    expect(co2.inputs).toMatchObject({
      provider: 'self',
      measured: true,
      energyMethod: 'estimated',
      zone: 'WOR',
    })
    expect(co2.inputs.energyKwh).toBeGreaterThan(0)
    // actual = energy x PUE 1.0..1.56 x world mix; standard stays gpt-4o's estimate.
    const kwh = co2.inputs.energyKwh as number
    expect(co2.actual.min).toBeCloseTo(kwh * 0.47301 * 1000, 12)
    expect(co2.actual.max).toBeCloseTo(kwh * 1.56 * 0.47301 * 1000, 12)
    expect(co2.standard.min).toBeGreaterThan(co2.actual.max)
    expect(co2.saved.mid).toBeGreaterThan(0)

    const figures = localEcoFiguresSchema.parse(await (await t.request('/api/impact/local-eco')).json())
    expect(figures).toMatchObject({ inProcess: true, method: 'estimated', zone: 'WOR' })
    expect(figures.model).toMatch(/^Loris eco \(/)
    expect(figures.samples).toBeGreaterThanOrEqual(1)
    expect(figures.energyKwhPerToken).toBeGreaterThan(0)
    expect(figures.gco2eqPerToken).toBeCloseTo(
      (figures.energyKwhPerToken as number) * 1.28 * 0.47301 * 1000,
      15,
    )
  })

  it('refuses a message too long for the eco model, says so, and charges nothing', async () => {
    const { cookie, user } = await t.signUp()
    const events = await readEvents(
      await send(t, cookie, { content: 'word '.repeat(4_000), isEcoMode: true }),
    )
    const end = events.at(-1)
    expect(end).toMatchObject({ status: 'failed', code: 'service_unavailable:provider' })
    expect(end?.error).toMatch(/too long for the Loris eco model/)
    expect(end?.error).toMatch(/shorten it.*another mode/)
    expect(JSON.stringify(end)).not.toMatch(ENV_NAME)
    expect(replyText(events)).toBe('')
    const row = await settled(t.deps.database.db, events[0]?.id as string)
    expect(row).toMatchObject({ status: 'failed', response: '', errorMessage: end?.error })
    const [charged] = await t.deps.database.db
      .select()
      .from(users)
      .where(eq(users.id, user.id as string))
    expect(charged).toMatchObject({ aiInputChars: 0, aiOutputChars: 0 })
  })

  it('Stop ends the reply as interrupted, keeping what arrived', async () => {
    const { cookie } = await t.signUp()
    const res = await send(t, cookie, { content: 'Tell me a very long story', isEcoMode: true })
    const reader = eventReader(res)
    const first = await reader.until((e) => Boolean(e.text))
    const id = reader.seen[0]?.id as string
    expect(first.text?.length).toBeGreaterThan(0)
    const stop = await t.request(`/api/messages/${id}/stop`, { method: 'POST', cookie })
    expect(stop.status).toBe(200)
    const events = await reader.rest()
    expect(events.at(-1)).toMatchObject({ done: true, status: 'interrupted' })
    const row = await waitFor(async () => {
      const r = await messageRow(t.deps.database.db, id)
      return r?.status !== 'streaming' && r
    })
    expect(row.status).toBe('interrupted')
    expect(row.response).toBe(replyText(events))
  })
})

describe('eco replies beyond the parallel limit', { timeout: 60_000 }, () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ ECO_ENGINE: 'on', ECO_MODEL_FILE: TEST_MODEL, ECO_PARALLEL: '1' })
  })
  afterAll(async () => {
    await closeEcoEngine(t.deps.env)
    await t.close()
  })

  it('wait in line and say so; the next starts when the first is stopped', async () => {
    const a = await t.signUp()
    const b = await t.signUp()
    const first = eventReader(await send(t, a.cookie, { content: 'A long story, please', isEcoMode: true }))
    await first.until((e) => Boolean(e.text))
    const second = eventReader(await send(t, b.cookie, { content: 'Another story', isEcoMode: true }))
    const queued = await second.until((e) => e.wait !== undefined)
    expect(queued.wait).toEqual({ kind: 'queued', position: 1 })
    const firstId = first.seen[0]?.id as string
    expect(
      (await t.request(`/api/messages/${firstId}/stop`, { method: 'POST', cookie: a.cookie })).status,
    ).toBe(200)
    expect((await first.rest()).at(-1)).toMatchObject({ done: true, status: 'interrupted' })
    const started = await second.until((e) => e.wait === null || Boolean(e.text))
    expect(started.wait === null || Boolean(started.text)).toBe(true)
    const secondId = second.seen[0]?.id as string
    await t.request(`/api/messages/${secondId}/stop`, { method: 'POST', cookie: b.cookie })
    const end = (await second.rest()).at(-1)
    expect(end).toMatchObject({ done: true })
  })
})

describe('first use: the default model is fetched from its (loopback) Hugging Face URL', {
  timeout: 60_000,
}, () => {
  let hf: HfStandIn
  let model: Buffer
  let dataDir: string
  const apps: TestApp[] = []
  const appWith = async (env: Record<string, string>) => {
    const t = await createTestApp({ ECO_ENGINE: 'on', DATA_DIR: dataDir, ...env })
    apps.push(t)
    return t
  }
  beforeAll(async () => {
    model = await readFile(TEST_MODEL)
    hf = await startHuggingFaceStandIn({ repo: 'loris/eco', revision: 'r1', files: { 'eco.gguf': model } })
    dataDir = await mkdtemp(path.join(tmpdir(), 'loris-eco-api-'))
  })
  afterAll(async () => {
    for (const t of apps) {
      await closeEcoEngine(t.deps.env)
      await t.close()
    }
    await hf.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('a visit does not fetch the model where Gemini is the default: the first eco send does', async () => {
    const before = hf.requests.length
    const t = await appWith({
      GEMINI_API_KEY: 'test',
      ECO_MODEL_URL: hf.resolveUrl('eco.gguf'),
      ECO_MODEL_SHA256: createHash('sha256').update(model).digest('hex'),
    })
    const config = await configOf(t)
    expect(config.defaultChatModel).toBe('gemini')
    expect(config.modes.loris.available).toBe(true)
    expect(config.ecoEngine?.state).toBe('idle')
    expect(hf.requests.length).toBe(before)
  })

  it('the visit that starts the download on a server that cannot reach the host hears so at once', async () => {
    // Nothing listens there: the download fails as an offline server's does, in a moment.
    const t = await appWith({
      ECO_MODEL_URL: `http://127.0.0.1:${await freePort()}/loris/eco/resolve/r1/eco.gguf`,
      ECO_MODEL_SHA256: '0'.repeat(64),
      DATA_DIR: path.join(dataDir, 'offline'),
    })
    // Not "downloading" (and Loris the default) first, taken back by the next poll.
    const first = await configOf(t)
    expect(first.ecoEngine?.state).toBe('failed')
    expect(first.defaultChatModel).toBeNull()
    expect(first.modes.loris).toEqual({
      available: false,
      reason: expect.stringContaining('could not be downloaded'),
    })
    expect(JSON.stringify(first)).not.toMatch(ENV_NAME)
  })

  it('a wrong checksum makes the mode unavailable with plain words, and keeps no file', async () => {
    const t = await appWith({
      ECO_MODEL_URL: hf.resolveUrl('eco.gguf'),
      ECO_MODEL_SHA256: '0'.repeat(64),
      DATA_DIR: path.join(dataDir, 'bad'),
    })
    await configOf(t)
    const config = await waitFor(async () => {
      const c = await configOf(t)
      return c.ecoEngine?.state === 'failed' && c
    })
    expect(config.modes.loris).toEqual({
      available: false,
      reason: expect.stringContaining('did not match the expected file'),
    })
    expect(config.modes.loris?.reason).toContain('place the model file on the server')
    expect(config.defaultChatModel).toBeNull()
    expect(JSON.stringify(config)).not.toMatch(ENV_NAME)
    const { cookie } = await t.signUp()
    const events = await readEvents(await send(t, cookie, { content: 'hello', isEcoMode: true }))
    expect(events).toEqual([
      { error: config.modes.loris?.reason, code: 'service_unavailable:provider', status: 'failed' },
    ])
  })

  it('shows download progress, a reply sent meanwhile says it waits, then streams', async () => {
    hf.setThrottle(400_000)
    const before = hf.requests.length
    const t = await appWith({
      ECO_MODEL_URL: hf.resolveUrl('eco.gguf'),
      ECO_MODEL_SHA256: createHash('sha256').update(model).digest('hex'),
    })
    const first = await configOf(t)
    expect(first.modes.loris?.available).toBe(true)
    expect(first.defaultChatModel).toBe('loris')
    const downloading = await waitFor(async () => {
      const c = await configOf(t)
      return c.ecoEngine?.state === 'downloading' && (c.ecoEngine.percent ?? 0) > 0 && c
    })
    expect(downloading.ecoEngine).toMatchObject({ totalBytes: model.length })
    expect(downloading.ecoEngine?.bytes).toBeGreaterThan(0)

    const { cookie } = await t.signUp()
    const reader = eventReader(await send(t, cookie, { content: 'Once upon a time', isEcoMode: true }))
    const wait = await reader.until((e) => e.wait !== undefined && e.wait !== null)
    expect(wait.wait).toMatchObject({ kind: 'preparing' })
    const events: ChatEvent[] = await reader.rest()
    expect(events.at(-1)).toMatchObject({ done: true, status: 'complete' })
    expect(replyText(events).length).toBeGreaterThan(0)
    expect(events.some((e) => e.wait === null)).toBe(true)
    expect((await configOf(t)).ecoEngine).toEqual({
      state: 'ready',
      bytes: null,
      totalBytes: null,
      percent: null,
    })
    // Fetched once, to DATA_DIR/models/, checked and renamed.
    expect((await readFile(path.join(dataDir, 'models', 'eco.gguf'))).equals(model)).toBe(true)
    expect(hf.requests.slice(before).filter((r) => r.path.startsWith('/repos/'))).toHaveLength(1)
  })
})
