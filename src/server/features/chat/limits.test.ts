// Limits under concurrency: the usage limit is checked and reserved in one
// step, at most MAX_GENERATING_PER_USER replies generate at once per user, and sends have a
// per-minute budget. Also run on PostgreSQL: node scripts/test-pg.mjs <this file>.
import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '#server/app.ts'
import { messages, users } from '#server/db/schema/index.ts'
import { FREE_LIMIT } from '#server/lib/usage.ts'
import { setUpAiTestApp } from '../../../../tests/helpers/ai-test-app.ts'
import { readEvents, settled, usageOf as usageOfUser, waitFor } from '../../../../tests/helpers/chat.ts'
import { TEST_ORIGIN } from '../../../../tests/helpers/test-app.ts'
import { MAX_GENERATING_PER_USER, SENDS_PER_MINUTE } from './admission.ts'
import { reconcileReservations } from './lease.ts'

const app = setUpAiTestApp()
// A second app node on the same database: nothing it knows in memory helps the first.
let nodeB: ReturnType<typeof createApp>
beforeAll(() => {
  nodeB = createApp(app.t.deps)
})

const db = () => app.t.deps.database.db
const send = (cookie: string, json: Record<string, unknown>) =>
  app.t.request('/api/messages', { method: 'POST', cookie, json })
const sendOnNodeB = (cookie: string, json: Record<string, unknown>) =>
  nodeB.request(`${TEST_ORIGIN}/api/messages`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  })
const SLOW = 'Tell me slowly [[scenario:slow]]'

async function signedIn() {
  const { cookie, user } = await app.t.signUp()
  return { cookie, userId: user.id as string }
}

async function usageOf(userId: string) {
  const usage = await usageOfUser(db(), userId)
  if (!usage) throw new Error('no such user')
  return usage
}

const streamingCount = async (userId: string) =>
  (
    await db()
      .select({ id: messages.id })
      .from(messages)
      .where(sql`${messages.userId} = ${userId} and ${messages.status} = 'streaming'`)
  ).length

describe('usage limit under parallel sends', () => {
  it('accepts only the one send of 20 parallel 99,000-character sends that fits, across two nodes', async () => {
    const { cookie, userId } = await signedIn()
    const content = 'x'.repeat(99_000)
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? sendOnNodeB : send)(cookie, { content })),
    )
    const accepted = responses.filter((r) => r.status === 200)
    const refused = responses.filter((r) => r.status === 429)
    expect(accepted).toHaveLength(1)
    expect(refused).toHaveLength(19)
    for (const r of refused) {
      expect(r.headers.get('retry-after')).toMatch(/^\d+$/)
      const body = await r.json()
      expect(body.code).toBe('rate_limited:usage')
      expect(body.message).toMatch(/^Free usage limit exceeded; resets on \d{4}-\d{2}-\d{2}$/)
    }
    // While the accepted reply is being written its input is reserved, not yet charged.
    const [only] = accepted
    const events = await readEvents(only as Response)
    expect(events.at(-1)).toMatchObject({ done: true, status: 'complete' })
    await settled(db(), events.at(-1)?.id as string)
    const after = await usageOf(userId)
    // Charged exactly once: one send's input, its reply's output, nothing left reserved.
    expect(after.input).toBe(99_000)
    expect(after.reserved).toBe(0)
    expect(after.input).toBeLessThanOrEqual(FREE_LIMIT)
    expect(app.ai.requests).toHaveLength(1)
    // Now over the limit: the next send is refused before anything is stored.
    const next = await send(cookie, { content: 'one more' })
    expect(next.status).toBe(429)
    expect((await next.json()).code).toBe('rate_limited:usage')
  })

  it('still lets one send go over the limit when nothing else is in flight (the spec rule)', async () => {
    const { cookie, userId } = await signedIn()
    await db().update(users).set({ aiInputChars: 95_000 }).where(eq(users.id, userId))
    const res = await send(cookie, { content: 'y'.repeat(10_000) })
    expect(res.status).toBe(200)
    await readEvents(res)
    await waitFor(async () => (await usageOf(userId)).input === 105_000)
    expect((await usageOf(userId)).reserved).toBe(0)
  })

  it('releases the reservation when the model fails (nothing is charged)', async () => {
    const { cookie, userId } = await signedIn()
    app.ai.setScenario('upstream-error')
    const events = await readEvents(await send(cookie, { content: 'will fail' }))
    expect(events.at(-1)?.status).toBe('failed')
    await settled(db(), events.at(-1)?.id as string)
    expect(await usageOf(userId)).toMatchObject({ input: 0, output: 0, reserved: 0 })
  })
})

describe('replies generating at once', () => {
  it(`refuses a send while ${MAX_GENERATING_PER_USER} replies are being written, with a clear 429`, async () => {
    const { cookie, userId } = await signedIn()
    const responses = await Promise.all(
      Array.from({ length: MAX_GENERATING_PER_USER + 2 }, (_, i) =>
        send(cookie, { content: `${SLOW} ${i}` }),
      ),
    )
    const accepted = responses.filter((r) => r.status === 200)
    const refused = responses.filter((r) => r.status === 429)
    expect(accepted).toHaveLength(MAX_GENERATING_PER_USER)
    expect(refused).toHaveLength(2)
    for (const r of refused) {
      expect(r.headers.get('retry-after')).toBe('5')
      expect(await r.json()).toMatchObject({
        code: 'rate_limited:concurrency',
        message:
          'You already have 3 replies being written. Wait for one to finish, then send again; your message is still in the box.',
      })
    }
    expect(await streamingCount(userId)).toBe(MAX_GENERATING_PER_USER)
    // Another user is not held up by this one.
    const other = await signedIn()
    const theirs = await send(other.cookie, { content: 'hello' })
    expect(theirs.status).toBe(200)
    await readEvents(theirs)
    // Once the replies end, sending works again.
    await Promise.all(accepted.map(readEvents))
    await waitFor(async () => (await streamingCount(userId)) === 0)
    const again = await send(cookie, { content: 'and now?' })
    expect(again.status).toBe(200)
    expect((await readEvents(again)).at(-1)).toMatchObject({ done: true })
  }, 60_000)
})

describe('per-minute send budget', () => {
  it(`refuses the send after ${SENDS_PER_MINUTE} in a minute with Retry-After and the seconds to wait`, async () => {
    const { cookie, userId } = await signedIn()
    // The budget is a shared counter: spend all but one of it as earlier sends would have.
    const key = `send:${userId}`
    await db().execute(
      sql`insert into rate_limits (key, window_start, count) values (${key}, now(), ${SENDS_PER_MINUTE - 1})`,
    )
    const last = await send(cookie, { content: 'the last one this minute' })
    expect(last.status).toBe(200)
    await readEvents(last)
    const over = await send(cookie, { content: 'one too many' })
    expect(over.status).toBe(429)
    const retryAfter = Number(over.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(await over.json()).toMatchObject({
      code: 'rate_limited:request',
      message: `You are sending messages faster than Loris can answer them. Please wait ${retryAfter} seconds and send again; your message is still in the box.`,
    })
    expect(app.ai.requests).toHaveLength(1)
  })
})

describe('the count of replies generating', () => {
  const generating = async (userId: string) =>
    (await db().select({ n: users.aiGenerating }).from(users).where(eq(users.id, userId)))[0]?.n

  it('goes back to zero when replies end, fail or are stopped, and after a reply deleted mid-way', async () => {
    const { cookie, userId } = await signedIn()
    // Ended normally, and failed.
    await readEvents(await send(cookie, { content: 'hello' }))
    app.ai.setScenario('upstream-error')
    await readEvents(await send(cookie, { content: 'will fail' }))
    app.ai.reset()
    expect(await generating(userId)).toBe(0)

    // Stopped while it was being written.
    // The exchange is stored before the answer starts: it is the user's one streaming row.
    const streamingId = async () =>
      (
        await db()
          .select({ id: messages.id })
          .from(messages)
          .where(sql`${messages.userId} = ${userId} and ${messages.status} = 'streaming'`)
      )[0]?.id as string
    const slow = await send(cookie, { content: SLOW })
    expect(slow.status).toBe(200)
    expect(await generating(userId)).toBe(1)
    const stop = await app.t.request(`/api/messages/${await streamingId()}/stop`, { method: 'POST', cookie })
    expect(stop.status).toBe(200)
    await readEvents(slow)
    await waitFor(async () => (await generating(userId)) === 0)

    // Deleted while it was being written (Clear History): the sweep's reconciliation frees it.
    const again = await send(cookie, { content: `${SLOW} again` })
    expect(again.status).toBe(200)
    expect(await generating(userId)).toBe(1)
    const cleared = await app.t.request('/api/messages', { method: 'DELETE', cookie })
    expect(cleared.status).toBe(200)
    await readEvents(again)
    await reconcileReservations(db())
    expect(await generating(userId)).toBe(0)
    expect((await usageOf(userId)).reserved).toBe(0)
  }, 30_000)
})

describe("an operator's plan limits", () => {
  const setFree = (limits: { chars: number; sends: number; replies: number }) =>
    db().execute(sql`insert into plan_limits (plan, chars_per_30_days, sends_per_minute, replies_at_once)
      values ('free', ${limits.chars}, ${limits.sends}, ${limits.replies})
      on conflict (plan) do update set chars_per_30_days = excluded.chars_per_30_days,
        sends_per_minute = excluded.sends_per_minute, replies_at_once = excluded.replies_at_once`)
  const clear = () => db().execute(sql`delete from plan_limits`)

  it('holds for the next send, on every node: replies at once, characters and sends per minute', async () => {
    try {
      await setFree({ chars: FREE_LIMIT, sends: SENDS_PER_MINUTE, replies: 1 })
      const busy = await signedIn()
      const first = await send(busy.cookie, { content: SLOW })
      expect(first.status).toBe(200)
      const second = await sendOnNodeB(busy.cookie, { content: 'and another' })
      expect(second.status).toBe(429)
      expect((await second.json()).message).toMatch(/^You already have 1 replies being written/)
      await readEvents(first)

      // Raised above the product's limit: a person past 100,000 characters may still send.
      await setFree({ chars: FREE_LIMIT * 2, sends: SENDS_PER_MINUTE, replies: 3 })
      const heavy = await signedIn()
      await db()
        .update(users)
        .set({ aiInputChars: FREE_LIMIT + 10 })
        .where(eq(users.id, heavy.userId))
      const over = await send(heavy.cookie, { content: 'still room' })
      expect(over.status).toBe(200)
      await readEvents(over)

      // Lowered: the same person is now past it.
      await setFree({ chars: 1_000, sends: 2, replies: 3 })
      const refused = await send(heavy.cookie, { content: 'no more room' })
      expect(refused.status).toBe(429)
      expect((await refused.json()).code).toBe('rate_limited:usage')

      // Two sends a minute: the third is refused with the wait.
      const quick = await signedIn()
      for (let i = 0; i < 2; i++) await readEvents(await send(quick.cookie, { content: `quick ${i}` }))
      const third = await sendOnNodeB(quick.cookie, { content: 'quick 2' })
      expect(third.status).toBe(429)
      expect((await third.json()).code).toBe('rate_limited:request')
    } finally {
      await clear()
    }
  }, 60_000)
})
