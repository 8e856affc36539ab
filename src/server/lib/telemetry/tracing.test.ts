// Traces during a send, received by a loopback OTLP collector: the request's span, the database
// statements under it, and the model call's span with the GenAI attributes.
// @runs-alone: it sets OpenTelemetry's process-wide providers, which other files must not share.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '#server/app.ts'
import { readEvents } from '../../../../tests/helpers/chat.ts'
import { createTestApp, sessionCookie, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { type AiStandIn, startAiStandIn } from '../../../../tests/stand-ins/ai-providers.ts'
import { type OtlpStandIn, startOtlpStandIn } from '../../../../tests/stand-ins/otlp.ts'
import { startTracing, type Tracing } from './tracing.ts'

let ai: AiStandIn
let collector: OtlpStandIn
let tracing: Tracing
let t: TestApp
let app: ReturnType<typeof createApp>

beforeAll(async () => {
  ai = await startAiStandIn()
  collector = await startOtlpStandIn()
  tracing = await startTracing({
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_SERVICE_NAME: 'loris-test',
  })
  t = await createTestApp({ GEMINI_API_KEY: 'test', GEMINI_BASE_URL: ai.geminiBaseUrl })
  tracing.traceDatabase(t.deps.database)
  app = createApp(t.deps, { tracing })
})
afterAll(async () => {
  await tracing?.shutdown()
  await t?.close()
  await collector?.close()
  await ai?.close()
})

const request = (
  path: string,
  init: { json?: unknown; cookie?: string; headers?: Record<string, string> } = {},
) =>
  app.request(`http://localhost:5000${path}`, {
    method: init.json === undefined ? 'GET' : 'POST',
    headers: {
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...init.headers,
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  })

describe('traces', () => {
  it('a send is one trace: the request, its statements and the model call with GenAI attributes', async () => {
    const signUp = await request('/api/register', {
      json: { email: 'traced@example.com', password: 'a strong password' },
    })
    expect(signUp.status).toBe(201)
    const cookie = sessionCookie(signUp)
    const events = await readEvents(
      await request('/api/messages', { cookie, json: { content: 'Trace me', clientMessageId: 'trace-1' } }),
    )
    expect(events.at(-1)?.status).toBe('complete')
    await tracing.flush()

    const send = collector.spans.find((s) => s.name === 'POST /api/messages')
    expect(send).toMatchObject({
      kind: 2, // SERVER
      attributes: {
        'http.route': '/api/messages',
        'http.response.status_code': 200,
        'http.request.method': 'POST',
      },
      resource: { 'service.name': 'loris-test' },
    })
    const inTrace = collector.spans.filter((s) => s.traceId === send?.traceId)
    const statements = inTrace.filter((s) => s.attributes['db.system.name'] === 'postgresql')
    expect(statements.length).toBeGreaterThan(0)
    expect(statements.some((s) => s.parentSpanId === send?.spanId)).toBe(true)
    expect(statements[0]?.attributes['db.query.text']).toEqual(expect.any(String))

    const model = inTrace.find((s) => s.name.startsWith('chat '))
    expect(model?.parentSpanId).toBe(send?.spanId)
    expect(model?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'google',
      'gen_ai.request.model': expect.any(String),
      'gen_ai.usage.input_tokens': expect.any(Number),
      'gen_ai.usage.output_tokens': expect.any(Number),
      'gen_ai.response.finish_reasons': ['stop'],
      'loris.reply.status': 'complete',
    })
    // The sign-up is a trace of its own.
    const register = collector.spans.find((s) => s.name === 'POST /api/register')
    expect(register?.traceId).not.toBe(send?.traceId)
  })

  it('continues a trace a proxy started (W3C traceparent)', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
    await request('/api/health', { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } })
    await tracing.flush()
    expect(collector.spans.find((s) => s.name === 'GET /api/health')).toMatchObject({
      traceId,
      parentSpanId: '00f067aa0ba902b7',
    })
  })
})
