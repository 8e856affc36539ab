// kill -9 mid-reply: the built server is killed while a slow reply streams,
// restarted on the same data directory, and the reply is finished as interrupted with the text it
// had within seconds (its lease lapses, the sweep finishes it); a retry of the send generates again
// at once. No browser: the subject is the process, driven through the HTTP API.
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Message } from '../../src/contract/messages.ts'
import { LEASE_MS, LOST_NODE_MESSAGE, SWEEP_MS } from '../../src/server/features/chat/lease.ts'
import { type AiStandIn, startAiStandIn } from '../stand-ins/ai-providers.ts'
import { type AppServer, startAppServer } from './support/app-server.ts'
import { chatEvents, signUp } from './support/chat-api.ts'
import { aiProviderEnv } from './support/chat-harness.ts'

let ai: AiStandIn
let first: AppServer | undefined
let second: AppServer | undefined
beforeAll(async () => {
  ai = await startAiStandIn()
})
afterAll(async () => {
  await first?.crash().catch(() => undefined)
  await second?.stop()
  // Both servers used the first one's data directory, which neither removes (crash keeps it).
  if (first) rmSync(first.dataDir, { recursive: true, force: true })
  await ai?.close()
})

function post(url: string, cookie: string, body: Record<string, unknown>) {
  return fetch(`${url}/api/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url, cookie },
    body: JSON.stringify({ isEcoMode: false, useOpenAI: false, ...body }),
  })
}

/** Polls the thread's messages until the message meets `check`. */
async function waitForMessage(
  url: string,
  cookie: string,
  threadId: string,
  id: string,
  check: (m: Message) => boolean,
  timeoutMs: number,
): Promise<Message> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const res = await fetch(`${url}/api/messages?threadId=${threadId}`, { headers: { cookie } })
    const found = ((await res.json()) as { items: Message[] }).items.find((m) => m.id === id)
    if (found && check(found)) return found
    if (Date.now() > deadline) throw new Error(`message ${id} did not reach the expected state in time`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

describe('a node killed mid-reply', () => {
  it('leaves the reply interrupted with its text within seconds of a restart, and a retry generates at once', async () => {
    first = await startAppServer(aiProviderEnv(ai))
    const cookie = await signUp(first.url, 'crash')
    const content = 'Tell me slowly [[scenario:slow]]'
    // A second a chunk: the reply is still being written when the kill comes, even under load.
    ai.setChunkDelayMs(1_000)
    const firstSend = chatEvents(await post(first.url, cookie, { content, clientMessageId: 'crash-1' }))
    const events = await firstSend.until(
      (e) =>
        // Enough text that a progress save (every 500 ms) has stored some of it.
        e.filter((x) => x.text).length >= 3,
    )
    firstSend.cancel()
    const id = events[0]?.id as string
    const threadId = events[0]?.threadId as string
    // Once a progress save has landed, kill -9: nothing is finished or flushed after this.
    await waitForMessage(first.url, cookie, threadId, id, (m) => m.response.length > 0, 30_000)
    const killedAt = Date.now()
    await first.crash()

    second = await startAppServer(aiProviderEnv(ai), { dataDir: first.dataDir })
    // Within one lease and one sweep period of the kill (plus slack for a loaded machine).
    const stored = await waitForMessage(
      second.url,
      cookie,
      threadId,
      id,
      (m) => m.status !== 'streaming',
      LEASE_MS + SWEEP_MS + 15_000 - (Date.now() - killedAt),
    )
    expect(stored).toMatchObject({ status: 'interrupted', errorMessage: LOST_NODE_MESSAGE })
    expect(stored?.response.length).toBeGreaterThan(0)

    // The retry with the same clientMessageId generates again at once, into the same message.
    ai.setChunkDelayMs(5)
    const started = Date.now()
    const retried = await chatEvents(
      await post(second.url, cookie, { content, clientMessageId: 'crash-1' }),
    ).until((e) => e.some((x) => x.done || x.error))
    expect(retried.at(-1)).toMatchObject({ id, done: true, status: 'complete' })
    expect(Date.now() - started).toBeLessThan(15_000)
  }, 120_000)
})
