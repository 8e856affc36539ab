import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { describe, expect, it } from 'vitest'
import { setUpAiTestApp } from '../../../../tests/helpers/ai-test-app.ts'
import { readEvents } from '../../../../tests/helpers/chat.ts'

const TOKEN = 'metrics-token-0123456789'
const h = setUpAiTestApp(() => ({ METRICS_TOKEN: TOKEN }))

const scrape = async (token = TOKEN) => {
  const res = await h.t.request('/metrics', { headers: { authorization: `Bearer ${token}` } })
  expect(res.status).toBe(200)
  return res.text()
}
/** The value of one series, 0 when absent. */
const value = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line ? Number(line.slice(series.length + 1)) : 0
}

describe('GET /metrics', () => {
  it('is answered to the bearer of METRICS_TOKEN only, from elsewhere than this machine', async () => {
    expect((await h.t.request('/metrics')).status).toBe(401)
    const wrong = await h.t.request('/metrics', { headers: { authorization: 'Bearer not-the-token-at-all' } })
    expect(wrong.status).toBe(401)
    expect(await wrong.json()).toMatchObject({ code: 'unauthorized:metrics' })
    const res = await h.t.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(await res.text()).toContain('# TYPE loris_http_requests_total counter')
  })

  it('counts what a send did: the request, the reply, its tokens, first token, CO2; and the queues', async () => {
    // The registry is the process's: other files of this worker may have counted replies too,
    // hence the differences and the provider named.
    const before = await scrape()
    const { cookie } = await h.t.signUp()
    const events = await readEvents(
      await h.t.request('/api/messages', {
        method: 'POST',
        cookie,
        json: { content: 'Count me', clientMessageId: 'metrics-1' },
      }),
    )
    expect(events.at(-1)?.status).toBe('complete')
    const after = await scrape()

    const reply = after
      .split('\n')
      .find((l) => l.startsWith('loris_replies_total{provider="google"') && l.includes('status="complete"'))
    expect(reply).toMatch(/provider="google",model="[^"]+"/)
    const labels = reply?.match(/\{provider="google",model="([^"]+)"/)?.[1]
    const model = `provider="google",model="${labels}"`
    const delta = (series: string) => value(after, series) - value(before, series)
    expect(delta(`loris_replies_total{${model},status="complete"}`)).toBe(1)
    expect(delta(`loris_reply_tokens_total{${model},kind="output"}`)).toBeGreaterThan(0)
    expect(delta(`loris_reply_tokens_total{${model},kind="input"}`)).toBeGreaterThan(0)
    expect(delta(`loris_reply_first_token_seconds_count{${model}}`)).toBe(1)
    expect(delta(`loris_co2_emitted_grams_total{${model}}`)).toBeGreaterThan(0)
    expect(after).toMatch(new RegExp(`loris_co2_saved_grams_total\\{${model}\\} `))
    expect(delta('loris_http_requests_total{route="/api/messages",method="POST",status="200"}')).toBe(1)
    expect(
      delta('loris_http_request_duration_seconds_count{route="/api/messages",method="POST",status="200"}'),
    ).toBe(1)
    expect(after).toContain('loris_queue_waiting{queue="imports"} 0')
    expect(after).toContain('loris_queue_waiting{queue="parse_pool"} 0')
    // The pool's use on PostgreSQL (npm run test:pg); the embedded database has no pool.
    if (h.t.deps.database.poolUse) expect(after).toContain('loris_db_pool_connections{state="max"} 10')
    else expect(after).not.toContain('loris_db_pool_connections{')
    // Node's own, started by the first scrape.
    expect(after).toContain('loris_nodejs_eventloop_lag_seconds')
    expect(after).toContain('loris_nodejs_eventloop_lag_p99_seconds')
  })

  it('counts requests by route pattern, not by path', async () => {
    const { cookie } = await h.t.signUp()
    await h.t.request('/api/uploads/00000000-0000-4000-8000-000000000000', { cookie })
    const text = await scrape()
    expect(text).toMatch(
      /loris_http_requests_total\{route="\/api\/uploads\/:id",method="GET",status="404"\} \d/,
    )
    expect(text).not.toContain('00000000-0000-4000-8000-000000000000')
  })
})

describe('GET /metrics without a token', () => {
  const open = setUpAiTestApp()

  it('is answered on a loopback socket, and not through a proxy nor to anyone else', async () => {
    expect((await open.t.request('/metrics')).status).toBe(404)
    const server = serve({ fetch: open.t.app.fetch, port: 0, hostname: '127.0.0.1' })
    try {
      await new Promise((r) => server.once('listening', r))
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`
      const res = await fetch(url)
      expect(res.status).toBe(200)
      expect(await res.text()).toContain('loris_replies_total')
      // A reverse proxy on this machine connects from loopback too.
      expect((await fetch(url, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(404)
      expect((await fetch(url, { headers: { forwarded: 'for=203.0.113.9' } })).status).toBe(404)
    } finally {
      await new Promise((r) => server.close(r))
    }
  })
})
