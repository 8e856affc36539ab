// Traces during a send, received by a loopback OTLP collector: the request's span, the database
// statements under it, the model call's span with the GenAI attributes, and its tool calls' spans
// (web_search through a SearXNG stand-in, an MCP server's tool, a read_link the fetch guard refuses).
// @runs-alone: it sets OpenTelemetry's process-wide providers, which other files must not share.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '#server/app.ts'
import { readEvents, settled } from '../../../../tests/helpers/chat.ts'
import { type LookupStandIns, startLookupStandIns } from '../../../../tests/helpers/lookup-stand-ins.ts'
import { createTestApp, sessionCookie, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { type CollectedSpan, type OtlpStandIn, startOtlpStandIn } from '../../../../tests/stand-ins/otlp.ts'
import { startTracing, type Tracing } from './tracing.ts'

let lookups: LookupStandIns
let collector: OtlpStandIn
let tracing: Tracing
let t: TestApp
let app: ReturnType<typeof createApp>

beforeAll(async () => {
  lookups = await startLookupStandIns()
  collector = await startOtlpStandIn()
  tracing = await startTracing({
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_SERVICE_NAME: 'loris-test',
  })
  t = await createTestApp({ ...lookups.env(), ...lookups.mcpServers(['release_animal']) })
  tracing.traceDatabase(t.deps.database)
  app = createApp(t.deps, { tracing })
})
afterAll(async () => {
  await tracing?.shutdown()
  await t?.close()
  await collector?.close()
  await lookups?.close()
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
      'loris.reply.first_token_ms': expect.any(Number),
    })
    // The sign-up is a trace of its own.
    const register = collector.spans.find((s) => s.name === 'POST /api/register')
    expect(register?.traceId).not.toBe(send?.traceId)
  })

  it("gives each tool call its own span under the model call's, within the call's real times", async () => {
    const { cookie } = await t.signUp()
    const events = await readEvents(
      await request('/api/messages', {
        cookie,
        json: {
          content:
            '[[tool:web_search {"query":"slow loris news"}]] [[tool:zoo__lookup_species {"name":"loris"}]] ' +
            '[[tool:read_link {"url":"http://127.0.0.1:9/private"}]] What is new with lorises?',
          webSearch: true,
          clientMessageId: 'trace-tools',
        },
      }),
    )
    expect(events.at(-1)?.status).toBe('complete')
    expect(lookups.search.queries.map((q) => q.query)).toContain('slow loris news')
    expect(lookups.mcp.calls).toContainEqual({ tool: 'lookup_species', args: { name: 'loris' } })
    await tracing.flush()

    const send = collector.spans.find(
      (s) =>
        s.name === 'POST /api/messages' &&
        collector.spans.some((o) => o.traceId === s.traceId && o.name === 'execute_tool web_search'),
    )
    const inTrace = collector.spans.filter((s) => s.traceId === send?.traceId)
    const model = inTrace.find((s) => s.name.startsWith('chat '))
    expect(model?.parentSpanId).toBe(send?.spanId)
    expect(model?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'google',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.output_tokens': expect.any(Number),
    })
    const tools = inTrace.filter((s) => s.attributes['gen_ai.operation.name'] === 'execute_tool')
    expect(tools.map((s) => s.name)).toEqual([
      'execute_tool web_search',
      'execute_tool zoo__lookup_species',
      'execute_tool read_link',
    ])
    const calls = events.flatMap((e) => (e.toolStep?.status === 'running' ? [e.toolStep.id] : []))
    for (const [i, span] of tools.entries()) {
      expect(span.parentSpanId).toBe(model?.spanId)
      expect(span.kind).toBe(1) // INTERNAL
      expect(span.attributes).toMatchObject({
        'gen_ai.tool.name': span.name.replace('execute_tool ', ''),
        'gen_ai.tool.call.id': calls[i],
        'gen_ai.tool.description': expect.any(String),
      })
    }
    expect(tools.slice(0, 2).map((s) => s.status?.code ?? 0)).toEqual([0, 0])
    // The fetch guard refuses a loopback link: the call failed, and its span says so.
    expect(tools[2]?.status?.code).toBe(2) // ERROR
    expect(tools[2]?.attributes['error.type']).toEqual(expect.any(String))

    // Real times: each tool ran inside the model call, one after the other, and the call's span
    // ended with the model's stream, before the reply was stored.
    const at = (s: CollectedSpan | undefined, end = false) =>
      BigInt((end ? s?.endTimeUnixNano : s?.startTimeUnixNano) ?? 0)
    expect(at(model)).toBeGreaterThanOrEqual(at(send))
    for (const [i, span] of tools.entries()) {
      expect(at(span)).toBeGreaterThanOrEqual(i === 0 ? at(model) : at(tools[i - 1], true))
      expect(at(span, true)).toBeGreaterThan(at(span))
    }
    expect(at(model, true)).toBeGreaterThanOrEqual(at(tools[2], true))
    // The statement storing the reply (chat/finalize.ts) ran after the model's stream ended.
    const stored = inTrace.find((s) =>
      /update messages m set[\s\S]*completed_at =/.test(String(s.attributes['db.query.text'])),
    )
    expect(stored).toBeDefined()
    expect(at(stored)).toBeGreaterThanOrEqual(at(model, true))
  })

  it("traces a tool the person approved in the answer's trace, under the model call that ran it", async () => {
    const { cookie } = await t.signUp()
    const events = await readEvents(
      await request('/api/messages', {
        cookie,
        json: { content: '[[tool:zoo__release_animal {"name":"Lori"}]] Please release Lori' },
      }),
    )
    const id = events[0]?.id as string
    expect(events.findLast((e) => e.toolStep)?.toolStep?.status).toBe('awaiting-approval')
    await settled(t.deps.database.db, id)
    const answer = await request(`/api/messages/${id}/approval`, { cookie, json: { approved: true } })
    expect(answer.status).toBe(200)
    await expect.poll(async () => (await settled(t.deps.database.db, id)).status).toBe('complete')
    expect(lookups.mcp.calls).toContainEqual({ tool: 'release_animal', args: { name: 'Lori' } })
    await tracing.flush()

    const release = collector.spans.find((s) => s.name === 'execute_tool zoo__release_animal')
    const model = collector.spans.find((s) => s.spanId === release?.parentSpanId)
    expect(model?.name).toMatch(/^chat /)
    expect(collector.spans.find((s) => s.spanId === model?.parentSpanId)).toMatchObject({
      name: 'POST /api/messages/:id/approval',
      traceId: release?.traceId,
    })
    expect(release?.status?.code ?? 0).toBe(0)
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
