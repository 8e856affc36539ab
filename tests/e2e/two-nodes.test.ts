// Stateless nodes on one PostgreSQL and one bucket: a reply started on one node is followed,
// reloaded and stopped through another, a node in cluster mode runs several workers on one port,
// and an image sent through one node is shown through the other. Two built servers (the second
// with WEB_CONCURRENCY=2), each with its own data directory, a throwaway PostgreSQL, the loopback
// S3 and the AI stand-in streaming slowly.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { messageListSchema, messagePageSchema } from '#contract/messages.ts'
import { startPostgres } from '../../scripts/postgres-server.mjs'
import { eventReader, replyText, waitFor } from '../helpers/chat.ts'
import { ChatPage } from '../pages/chat-page.ts'
import { ComposerControls } from '../pages/composer.ts'
import { type AiStandIn, startAiStandIn } from '../stand-ins/ai-providers.ts'
import { type OtlpStandIn, startOtlpStandIn } from '../stand-ins/otlp.ts'
import { type S3StandIn, startS3StandIn } from '../stand-ins/s3.ts'
import { type AppServer, startAppServer } from './support/app-server.ts'
import { launchBrowser, type TestBrowser } from './support/browser.ts'
import { aiProviderEnv } from './support/chat-harness.ts'
import { reportOnFailure } from './support/failure-report.ts'

let standIn: AiStandIn
let s3: S3StandIn | undefined
let collector: OtlpStandIn | undefined
let postgres: { url: string; stop(): void } | undefined
let a: AppServer | undefined
let b: AppServer | undefined

beforeAll(async () => {
  standIn = await startAiStandIn()
  try {
    s3 = await startS3StandIn()
    collector = await startOtlpStandIn()
    const pg = await startPostgres()
    postgres = pg
    const env = {
      ...aiProviderEnv(standIn),
      ...s3.env(),
      DATABASE_URL: pg.url,
      // Every node signs sessions with the same secret: a cookie from one is good on the other.
      SESSION_SECRET: 'two-nodes-share-this-secret-0123456789',
    }
    // One after the other: both migrate the same database (under the advisory lock anyway).
    // Node A sends its traces to the collector.
    a = await startAppServer({ ...env, WEB_CONCURRENCY: '1', OTEL_EXPORTER_OTLP_ENDPOINT: collector.url })
    b = await startAppServer({ ...env, WEB_CONCURRENCY: '2' })
  } catch (err) {
    await a?.stop().catch(() => undefined)
    postgres?.stop()
    await s3?.close()
    await collector?.close()
    await standIn.close()
    throw err
  }
}, 300_000)

afterAll(async () => {
  await b?.stop().catch(() => undefined)
  await a?.stop().catch(() => undefined)
  postgres?.stop()
  await s3?.close()
  await collector?.close()
  await standIn?.close()
})

const node = (server: AppServer | undefined) => {
  if (!server) throw new Error('not started')
  return (path: string, init: RequestInit & { cookie?: string; json?: unknown } = {}) => {
    const { cookie, json, ...rest } = init
    const headers = new Headers(rest.headers)
    if (cookie) headers.set('cookie', cookie)
    if (json !== undefined) headers.set('content-type', 'application/json')
    return fetch(`${server.url}${path}`, {
      ...rest,
      headers,
      body: json === undefined ? rest.body : JSON.stringify(json),
    })
  }
}

describe('two nodes on one PostgreSQL', () => {
  it('runs the second node as two workers on one port', async () => {
    const listening = () => (b?.logs.join('') ?? '').match(/Loris is listening/g)?.length ?? 0
    // The node answered once its first worker listened; the second follows.
    await waitFor(async () => listening() >= 2, 60_000)
    // Each process writes its log at least once a second.
    await waitFor(async () => b?.logs.join('').includes('starting workers'))
    expect(listening()).toBe(2)
    expect(a?.logs.join('')).not.toContain('starting workers')
  })

  it('answers /metrics on node B for both its workers together', async () => {
    if (!b) throw new Error('not started')
    const health = 'loris_http_requests_total{route="/api/health",method="GET",status="200"}'
    const count = async () => {
      const res = await fetch(`${b?.url}/metrics`)
      expect(res.status).toBe(200)
      const line = (await res.text()).split('\n').find((l) => l.startsWith(`${health} `))
      return Number(line?.slice(health.length + 1) ?? 0)
    }
    // Both workers listen (the first test waited for it); the primary hands connections round.
    const before = await count()
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${b.url}/api/health`, { headers: { connection: 'close' } })
      expect(res.status).toBe(200)
    }
    // Summed over the workers: one worker alone saw about half of them.
    expect((await count()) - before).toBe(20)
  })

  it('follows, reloads and stops through node B a reply node A is writing', async () => {
    const onA = node(a)
    const onB = node(b)
    const res = await onA('/api/register', {
      method: 'POST',
      json: { email: `nodes-${Date.now()}@example.com`, password: 'a strong password' },
    })
    expect(res.status).toBe(201)
    const cookie = (res.headers.getSetCookie().find((c) => c.startsWith('loris_session=')) ?? '').split(
      ';',
    )[0]!
    // Signed in on A, known on B: the session is a row, not process memory.
    expect((await onB('/api/user', { cookie })).status).toBe(200)

    standIn.setChunkDelayMs(250)
    const send = { content: 'Tell me slowly [[scenario:slow]]', clientMessageId: 'two-nodes-1' }
    const onAEvents = eventReader(await onA('/api/messages', { method: 'POST', cookie, json: send }))
    const { id, threadId } = await onAEvents.until((e) => e.status === 'streaming')
    await onAEvents.until((e) => Boolean(e.text))

    // Followed: the same send through B follows the reply from the database as A writes it.
    const onBEvents = eventReader(await onB('/api/messages', { method: 'POST', cookie, json: send }))
    const head = await onBEvents.until((e) => e.status === 'streaming')
    expect(head.id).toBe(id)
    await onBEvents.until((e) => Boolean(e.text))

    // Reloaded: B lists the reply, still being written, with the text saved so far.
    const midway = await waitFor(async () => {
      const page = messagePageSchema.parse(
        await (await onB(`/api/messages?threadId=${threadId}&limit=10`, { cookie })).json(),
      )
      const m = page.items.find((x) => x.id === id)
      return m?.status === 'streaming' && m.response ? m : undefined
    })
    expect(midway.response).toMatch(/^Echo: Tell me slowly/)

    // Stopped: Stop through B ends A's generation (A notices the flag at its next save).
    const stop = await onB(`/api/messages/${id}/stop`, { method: 'POST', cookie })
    expect(stop.status).toBe(200)
    const aEnd = (await onAEvents.rest()).at(-1)
    expect(aEnd?.status).toBe('interrupted')
    const bEnd = (await onBEvents.rest()).at(-1)
    expect(bEnd?.status).toBe('interrupted')

    const stored = await waitFor(async () => {
      const list = messageListSchema.parse(
        await (await onA(`/api/messages?threadId=${threadId}`, { cookie })).json(),
      )
      const m = list.find((x) => x.id === id)
      return m && m.status !== 'streaming' ? m : undefined
    })
    expect(stored.status).toBe('interrupted')
    // What A streamed before the stop is what was kept; the slow reply had more to say.
    expect(stored.response.startsWith(midway.response)).toBe(true)
    expect(stored.response).not.toMatch(/interrupt it while it is arriving\.$/)
    expect(replyText(onAEvents.seen).startsWith(midway.response)).toBe(true)
  }, 120_000)
})

describe('two nodes on one bucket', () => {
  let browser: TestBrowser | undefined
  beforeAll(async () => {
    browser = await launchBrowser()
  }, 60_000)
  afterAll(() => browser?.close())

  it('a node whose bucket does not answer stops at start, saying which and why', async () => {
    if (!s3) throw new Error('not started')
    const started = startAppServer({ ...s3.env(), S3_BUCKET: 'missing-bucket' }, { readyTimeoutMs: 60_000 })
    await expect(started).rejects.toThrow(
      `Object storage unreachable: bucket "missing-bucket" at ${s3.url}: no such bucket.`,
    )
  }, 90_000)

  it('shows through node B an image sent through node A', async () => {
    if (!a || !b || !s3 || !browser) throw new Error('not started')
    const tab = await browser.newPage()
    reportOnFailure(tab, a)
    // Cookies are kept per host, not per port: signed up on A, the tab is signed in on B too.
    const res = await tab.context.request.post(`${a.url}/api/register`, {
      data: { email: `bucket-${Date.now()}@example.com`, password: 'a strong password' },
    })
    expect(res.status()).toBe(201)
    const onA = new ChatPage(tab.page, a.url)
    await onA.open()
    const composer = new ComposerControls(tab.page)
    await composer.upload('Upload image', 'image.png')
    await composer.chip().filter({ hasText: 'image.png' }).waitFor()
    await onA.send('Seen from the other node?')
    await onA.waitForReply('Seen from the other node?', '[image image/png 821 bytes]')
    // Stored in the bucket, not on A's disk.
    expect([...s3.objects.keys()].some((k) => k.startsWith('uploads/'))).toBe(true)
    expect(existsSync(join(a.dataDir, 'uploads'))).toBe(false)

    // Node A traced the send: its request, the statements on PostgreSQL under it, the model call.
    const spans = collector?.spans ?? []
    // (The reply stopped in the test before is traced too, with the error status: this one ended.)
    const model = await waitFor(async () =>
      spans.find(
        (s) =>
          s.name.startsWith('chat ') &&
          s.status?.code !== 2 &&
          s.attributes['gen_ai.usage.output_tokens'] !== undefined,
      ),
    )
    const send = spans.find((s) => s.spanId === model.parentSpanId)
    expect(send).toMatchObject({ name: 'POST /api/messages', traceId: model.traceId })
    expect(model.attributes['gen_ai.usage.output_tokens']).toEqual(expect.any(Number))
    expect(
      spans.some((s) => s.parentSpanId === send?.spanId && s.attributes['loris.db.kind'] === 'postgres'),
    ).toBe(true)
    // And counted it.
    const metrics = await (await fetch(`${a.url}/metrics`)).text()
    expect(metrics).toMatch(/loris_replies_total\{provider="google",model="[^"]+",status="complete"\} [1-9]/)

    const thread = await waitFor(
      async () => new URL(tab.page.url()).pathname.match(/^\/chat\/(?!new$).+/)?.[0],
    )
    const onB = new ChatPage(tab.page, b.url)
    await tab.page.goto(`${b.url}${thread}`)
    const image = onB.exchange('Seen from the other node?').getByRole('img', { name: 'Shared by you' })
    await image.waitFor()
    await tab.page.waitForFunction(
      (el) => el instanceof HTMLImageElement && el.complete && el.naturalWidth > 0,
      await image.elementHandle(),
    )
    expect(existsSync(join(b.dataDir, 'uploads'))).toBe(false)
    expect(tab.unexpectedErrors()).toEqual([])
  }, 120_000)
})
