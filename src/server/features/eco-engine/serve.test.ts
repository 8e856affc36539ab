// `npm run eco:serve` as a web node meets it: the engine alone behind the OpenAI-compatible API,
// on a loopback port, with the tiny stories260K model; the web node's eco mode pointed at it
// (ECO_BASE_URL) stores each reply's CO2 from the energy the service metered.
import { spawn } from 'node:child_process'
import { setMaxListeners } from 'node:events'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { serve } from '@hono/node-server'
import { streamText } from 'ai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { co2ImpactSchema } from '#contract/impact.ts'
import { parseEnv } from '#server/env.ts'
import { providerFactories } from '#server/features/models/providers.ts'
import { createLogger } from '#server/lib/logger.ts'
import { messageRow, readEvents, replyText, waitFor } from '../../../../tests/helpers/chat.ts'
import { freePort } from '../../../../tests/helpers/free-port.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { EcoEngine } from './engine.ts'
import { energyFromMetadata } from './reported-energy.ts'
import { ecoServeApp, MAX_WAITING } from './serve.ts'
import { ecoEngineSettings } from './settings.ts'

const TEST_MODEL = path.resolve(import.meta.dirname, '../../../../tests/fixtures/models/stories260K.gguf')
const KEY = 'eco-serve-test-key'

let engine: EcoEngine
let server: ReturnType<typeof serve>
let base: string
let web: TestApp

beforeAll(async () => {
  const env = parseEnv({ NODE_ENV: 'test', ECO_MODEL_FILE: TEST_MODEL, ECO_THREADS: '1', ECO_PARALLEL: '1' })
  engine = new EcoEngine(ecoEngineSettings(env), createLogger({ level: 'silent' }))
  await engine.prepare()
  server = serve({ fetch: ecoServeApp({ engine, apiKey: KEY }).fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise((r) => server.once('listening', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  web = await createTestApp({
    ECO_BASE_URL: base,
    ECO_MODEL: 'stories',
    ECO_API_KEY: KEY,
    ECO_MODEL_PARAMS_B: '0.0003',
  })
}, 60_000)
afterAll(async () => {
  await web?.close()
  await new Promise((r) => server?.close(r))
  await engine?.close()
})

const call = (body: unknown, key = KEY) =>
  fetch(`${base}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  })

describe('the eco model as a service', { timeout: 60_000 }, () => {
  it('a web node eco reply through it stores CO2 from the energy the service metered', async () => {
    const { cookie } = await web.signUp()
    const events = await readEvents(
      await web.request('/api/messages', {
        method: 'POST',
        cookie,
        json: { content: 'Once upon a time', isEcoMode: true },
      }),
    )
    expect(events.at(-1)).toMatchObject({ done: true, status: 'complete' })
    const text = replyText(events)
    expect(text.length).toBeGreaterThan(0)
    const row = await messageRow(web.deps.database.db, events[0]?.id as string)
    expect(row).toMatchObject({ chatModel: 'loris', provider: 'self', modelId: 'stories', response: text })
    expect(row?.outputTokens).toBeGreaterThan(0)
    const co2 = co2ImpactSchema.parse(row?.co2Impact)
    // Metered by the service (CPU time x TDP on this machine), not estimated from the model's size.
    expect(co2.inputs).toMatchObject({ provider: 'self', measured: true, energyMethod: 'estimated' })
    expect(co2.inputs.energyKwh).toBeGreaterThan(0)
  })

  it('through the AI SDK streamText, the energy arrives as the step provider metadata', async () => {
    const eco = providerFactories(web.deps.env).eco
    if (!eco) throw new Error('the eco endpoint is not configured')
    const result = streamText({ model: eco('stories'), prompt: 'Once upon a time', maxOutputTokens: 8 })
    let energy = null
    for await (const part of result.fullStream)
      if (part.type === 'finish-step') energy = energyFromMetadata(part.providerMetadata)
    expect(energy).toMatchObject({ method: 'estimated', joules: expect.any(Number) })
  })

  it('answers a whole completion with its usage and metered energy', async () => {
    const res = await call({
      model: 'any',
      messages: [{ role: 'user', content: 'Once upon a time' }],
      max_tokens: 8,
    })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'any',
      choices: [{ message: { role: 'assistant' } }],
    })
    expect(body.usage.completion_tokens).toBeGreaterThan(0)
    expect(body.usage.completion_tokens).toBeLessThanOrEqual(8)
    expect(body.usage.loris_energy).toMatchObject({ method: 'estimated' })
    expect(body.usage.loris_energy.joules).toBeGreaterThan(0)
    // Counted on the service's own /metrics (read here from loopback).
    const metrics = await (await fetch(base.replace(/\/v1$/, '/metrics'))).text()
    expect(metrics).toMatch(/loris_replies_total\{provider="self",model="any",status="complete"\} 1/)
    expect(metrics).toMatch(/loris_reply_first_token_seconds_count\{provider="self",model="any"\} 1/)
  })

  it('streams chunks, then the usage, then [DONE]', async () => {
    const res = await call({
      messages: [
        { role: 'system', content: 'Tell a story.' },
        { role: 'user', content: [{ type: 'text', text: 'Once upon a time' }] },
      ],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 8,
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const data = (await res.text())
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => l.slice(6))
    expect(data.at(-1)).toBe('[DONE]')
    const chunks = data.slice(0, -1).map((d) => JSON.parse(d))
    expect(chunks[0].choices[0].delta.role).toBe('assistant')
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop')
    expect(chunks.at(-1).usage.loris_energy.joules).toBeGreaterThan(0)
  })

  it('refuses a request while 16 replies wait in line, with 503 and Retry-After', async () => {
    const app = ecoServeApp({ engine, apiKey: KEY })
    const completion = () =>
      app.request('/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
        body: JSON.stringify({ messages: [{ role: 'user', content: 'Once upon a time' }], max_tokens: 4 }),
      })
    const stop = new AbortController()
    // Every reply below listens to it.
    setMaxListeners(2 * MAX_WAITING, stop.signal)
    const replies: Promise<unknown>[] = []
    const ask = (onQueued: (position: number) => void) =>
      replies.push(
        engine
          .generate({
            system: '',
            turns: [{ role: 'user', text: 'Once upon a time' }],
            maxTokens: 64,
            signal: stop.signal,
            onText: () => {},
            onQueued,
          })
          .catch(() => null),
      )
    // ECO_PARALLEL=1: the first reply takes the one sequence; as it starts, 16 more are asked and
    // wait, and the request arrives as the 16th joins the line. Each step runs on promises alone,
    // before the running reply's next token (native work, answered on a later turn of the event
    // loop) could free the sequence.
    const refused = new Promise<Response>((resolve) =>
      ask((position) => {
        if (position !== 0 || replies.length > 1) return
        for (let i = 0; i < MAX_WAITING; i++)
          ask((waiting) => {
            if (waiting === MAX_WAITING && engine.queued === MAX_WAITING) resolve(completion())
          })
      }),
    )
    const res = await refused
    expect(engine.queued).toBe(MAX_WAITING)
    stop.abort()
    await Promise.all(replies)
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('5')
    expect((await res.json()).error).toMatchObject({
      code: 'busy',
      message: 'The eco model is busy; try again shortly.',
    })
    // With the line empty again, the same request is answered.
    expect(engine.queued).toBe(0)
    expect((await completion()).status).toBe(200)
  })

  it('refuses a wrong key, a conversation not ending with the person, and a prompt too long', async () => {
    const wrong = await call({ messages: [{ role: 'user', content: 'hi' }] }, 'not-the-key')
    expect(wrong.status).toBe(401)
    expect((await wrong.json()).error.code).toBe('invalid_api_key')
    const assistantLast = await call({ messages: [{ role: 'assistant', content: 'hi' }] })
    expect(assistantLast.status).toBe(400)
    expect((await assistantLast.json()).error.message).toBe('The last message must be from the user.')
    const long = await call({
      messages: [{ role: 'user', content: 'tell me a story '.repeat(4000) }],
      stream: true,
    })
    expect(long.status).toBe(400)
    expect((await long.json()).error.code).toBe('context_length_exceeded')
    const models = await fetch(`${base}/models`, { headers: { authorization: `Bearer ${KEY}` } })
    expect((await models.json()).data[0]).toMatchObject({ object: 'model', owned_by: 'loris' })
  })
})

describe('npm run eco:serve', () => {
  it('loads the model, serves on ECO_SERVE_PORT, and stops on SIGTERM', async () => {
    const port = await freePort()
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/eco-serve.ts'], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        ECO_MODEL_FILE: TEST_MODEL,
        ECO_THREADS: '1',
        ECO_SERVE_PORT: String(port),
        ECO_SERVE_API_KEY: KEY,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (d) => {
      output += String(d)
    })
    child.stderr.on('data', (d) => {
      output += String(d)
    })
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
    try {
      await waitFor(async () => output.includes('Loris eco model is serving'), 60_000)
      const health = await fetch(`http://127.0.0.1:${port}/health`)
      expect(await health.json()).toEqual({ status: 'ok' })
      const res = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
        body: JSON.stringify({ messages: [{ role: 'user', content: 'Once' }], max_tokens: 4 }),
      })
      expect(res.status).toBe(200)
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
      expect(output).toContain('stopped')
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  }, 90_000)
})
