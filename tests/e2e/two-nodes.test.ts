// Stateless nodes on one PostgreSQL: a reply started on one node is followed,
// reloaded and stopped through another, and a node in cluster mode runs several workers on one
// port. Two built servers (the second with WEB_CONCURRENCY=2), a throwaway PostgreSQL and the AI
// stand-in streaming slowly, all over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { messageListSchema, messagePageSchema } from '#contract/messages.ts'
import { startPostgres } from '../../scripts/postgres-server.mjs'
import { eventReader, replyText, waitFor } from '../helpers/chat.ts'
import { type AiStandIn, startAiStandIn } from '../stand-ins/ai-providers.ts'
import { type AppServer, startAppServer } from './support/app-server.ts'
import { aiProviderEnv } from './support/chat-harness.ts'

let standIn: AiStandIn
let postgres: { url: string; stop(): void } | undefined
let a: AppServer | undefined
let b: AppServer | undefined

beforeAll(async () => {
  standIn = await startAiStandIn()
  try {
    const pg = await startPostgres()
    postgres = pg
    const env = {
      ...aiProviderEnv(standIn),
      DATABASE_URL: pg.url,
      // Every node signs sessions with the same secret: a cookie from one is good on the other.
      SESSION_SECRET: 'two-nodes-share-this-secret-0123456789',
    }
    // One after the other: both migrate the same database (under the advisory lock anyway).
    a = await startAppServer({ ...env, WEB_CONCURRENCY: '1' })
    b = await startAppServer({ ...env, WEB_CONCURRENCY: '2' })
  } catch (err) {
    await a?.stop().catch(() => undefined)
    postgres?.stop()
    await standIn.close()
    throw err
  }
}, 300_000)

afterAll(async () => {
  await b?.stop().catch(() => undefined)
  await a?.stop().catch(() => undefined)
  postgres?.stop()
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
