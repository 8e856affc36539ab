// A tool the operator marked as needing approval (MCP_SERVERS needsApproval): the reply stops at
// the call, stored with what it needs to go on; the owner's one answer (approve or deny) goes on
// with the tool's result or the denial; others get 404, a second answer 409, and one past its
// time 409 with the step refused. Decision 070.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { messageSchema } from '#contract/messages.ts'
import { APPROVAL_MINUTES, type ToolStep } from '#contract/tools.ts'
import { users } from '#server/db/schema/index.ts'
import { readEvents, settled } from '../../../../tests/helpers/chat.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { type AiStandIn, startAiStandIn } from '../../../../tests/stand-ins/ai-providers.ts'
import { type McpStandIn, startMcpStandIn } from '../../../../tests/stand-ins/mcp.ts'
import { expireApprovals } from './approval.ts'

let ai: AiStandIn
let mcp: McpStandIn
let t: TestApp
// The app's clock: a test moves it past an approval's expiry.
let clock = Date.now()
beforeAll(async () => {
  ai = await startAiStandIn()
  mcp = await startMcpStandIn()
  t = await createTestApp(
    {
      OPENAI_API_KEY: 'test',
      OPENAI_BASE_URL: ai.openaiBaseUrl,
      MCP_SERVERS: JSON.stringify([{ name: 'zoo', url: mcp.url, needsApproval: ['release_animal'] }]),
    },
    { now: () => new Date(clock) },
  )
})
afterAll(async () => {
  await t?.close()
  await ai?.close()
  await mcp?.close()
})
beforeEach(() => {
  ai.reset()
  clock = Date.now()
})

const db = () => t.deps.database.db
const RELEASE = '[[tool:zoo__release_animal {"name":"Lori"}]] Please release Lori'
const releases = () => mcp.calls.filter((c) => c.tool === 'release_animal').length

/** A reply stopped at the call to release_animal, as the person sees it. */
async function askToRelease() {
  const { cookie } = await t.signUp()
  const res = await t.request('/api/messages', {
    method: 'POST',
    cookie,
    json: { content: RELEASE, useOpenAI: true },
  })
  expect(res.status).toBe(200)
  const events = await readEvents(res)
  const id = events[0]?.id as string
  return { cookie, id, events }
}

const answer = (id: string, cookie: string, approved: boolean) =>
  t.request(`/api/messages/${id}/approval`, { method: 'POST', cookie, json: { approved } })

const stepOf = (steps: unknown) => (steps as ToolStep[] | null)?.[0]

describe('a tool call that waits for approval', () => {
  it('stops the reply at the call, stored with its step waiting, Approve and Deny on it', async () => {
    const before = releases()
    const { id, events } = await askToRelease()
    const waiting = events.findLast((e) => e.toolStep)?.toolStep
    expect(waiting).toMatchObject({
      name: 'zoo__release_animal',
      args: { name: 'Lori' },
      status: 'awaiting-approval',
      approval: { messageId: id },
    })
    const expiresAt = Date.parse(waiting?.approval?.expiresAt ?? '')
    expect(expiresAt - clock).toBe(APPROVAL_MINUTES * 60_000)
    expect(events.at(-1)).toMatchObject({ done: true, status: 'complete' })
    expect(releases()).toBe(before)
    // Stored as it stands: settled, what it needs to go on kept with it (a refresh shows the same).
    const row = await settled(db(), id)
    expect(row.completedAt).not.toBeNull()
    expect(row.pendingApproval).toMatchObject({ requests: [{ toolCallId: waiting?.id }], webSearch: false })
    expect(stepOf(row.toolSteps)).toMatchObject({ status: 'awaiting-approval', approval: { messageId: id } })
  })

  it('runs the tool once approved and goes on, counting both model calls in the footprint', async () => {
    const before = releases()
    const { id, cookie } = await askToRelease()
    const first = await settled(db(), id)
    const firstCall = ai.requests.length

    const res = await answer(id, cookie, true)
    expect(res.status).toBe(200)
    expect(messageSchema.parse(await res.json())).toMatchObject({ id, status: 'streaming' })
    const row = await settled(db(), id)
    expect(row.status).toBe('complete')
    expect(releases()).toBe(before + 1)
    expect(row.response).toContain('Lori was released.')
    expect(stepOf(row.toolSteps)).toMatchObject({ status: 'done', name: 'zoo__release_animal' })
    expect(stepOf(row.toolSteps)?.approval).toBeUndefined()
    expect(row.pendingApproval).toBeNull()
    // The second call was sent the tool's result after the call.
    expect(ai.requests.length).toBe(firstCall + 1)
    expect(JSON.stringify(ai.requests.at(-1)?.body)).toContain('Lori was released.')
    // Both calls' tokens and time; the person's saving counted once, the output charged once.
    expect(row.outputTokens).toBeGreaterThan(first.outputTokens ?? 0)
    expect(row.inputTokens).toBeGreaterThan(first.inputTokens ?? 0)
    expect(row.latencyMs).toBeGreaterThanOrEqual(first.latencyMs ?? 0)
    const [person] = await db().select().from(users).where(eq(users.id, row.userId))
    const impact = row.co2Impact as { saved: { mid: number } }
    expect(person?.co2Saved).toBeCloseTo(impact.saved.mid, 9)
    expect(person?.aiOutputChars).toBe(row.response.length)
    expect(person?.aiGenerating).toBe(0)
    expect(person?.aiReservedChars).toBe(0)
  })

  it('tells the model when the person denies, and the tool never runs', async () => {
    const before = releases()
    const { id, cookie } = await askToRelease()
    await settled(db(), id)
    expect((await answer(id, cookie, false)).status).toBe(200)
    const row = await settled(db(), id)
    expect(row.status).toBe('complete')
    expect(releases()).toBe(before)
    expect(stepOf(row.toolSteps)).toMatchObject({ status: 'refused' })
    expect(stepOf(row.toolSteps)?.result).toContain('did not approve')
    expect(JSON.stringify(ai.requests.at(-1)?.body)).toContain('did not approve')
  })

  it("is another person's to answer only as a missing message (404)", async () => {
    const { id } = await askToRelease()
    await settled(db(), id)
    const other = await t.signUp()
    const res = await answer(id, other.cookie, true)
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ code: 'not_found:message' })
    const row = await settled(db(), id)
    expect(row.pendingApproval).not.toBeNull()
  })

  it('takes one answer: a second click and a race of 20 get 409', async () => {
    const before = releases()
    const { id, cookie } = await askToRelease()
    await settled(db(), id)
    const answers = await Promise.all(Array.from({ length: 20 }, () => answer(id, cookie, true)))
    const statuses = answers.map((r) => r.status).sort()
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 409)).toHaveLength(19)
    const refused = answers.find((r) => r.status === 409)
    expect(await refused?.json()).toMatchObject({
      code: 'conflict:approval',
      message: expect.stringMatching(/already answered/),
    })
    await settled(db(), id)
    const again = await answer(id, cookie, false)
    expect(again.status).toBe(409)
    expect(releases()).toBe(before + 1)
  })

  it('expires: an answer past its time is refused (409), the step says so, the tool never runs', async () => {
    const before = releases()
    const { id, cookie } = await askToRelease()
    const stopped = await settled(db(), id)
    clock += APPROVAL_MINUTES * 60_000 + 1
    const res = await answer(id, cookie, true)
    expect(res.status).toBe(409)
    expect(await res.json()).toMatchObject({
      code: 'conflict:approval',
      message: expect.stringMatching(`Not approved within ${APPROVAL_MINUTES} minutes`),
    })
    const row = await settled(db(), id)
    expect(row.pendingApproval).toBeNull()
    expect(row.response).toBe(stopped.response)
    expect(stepOf(row.toolSteps)).toMatchObject({
      status: 'refused',
      result: `Not approved within ${APPROVAL_MINUTES} minutes.`,
    })
    expect(releases()).toBe(before)
    expect((await answer(id, cookie, true)).status).toBe(409)
  })

  it('is ended by the maintenance sweep once past its time, and only then', async () => {
    const { id, cookie } = await askToRelease()
    await settled(db(), id)
    await expireApprovals(db(), new Date(clock + APPROVAL_MINUTES * 60_000 - 1000))
    expect((await settled(db(), id)).pendingApproval).not.toBeNull()
    await expireApprovals(db(), new Date(clock + APPROVAL_MINUTES * 60_000 + 1))
    const row = await settled(db(), id)
    expect(row.pendingApproval).toBeNull()
    expect(stepOf(row.toolSteps)).toEqual({
      id: stepOf(row.toolSteps)?.id,
      name: 'zoo__release_animal',
      args: { name: 'Lori' },
      status: 'refused',
      result: `Not approved within ${APPROVAL_MINUTES} minutes.`,
    })
    const res = await answer(id, cookie, true)
    expect(res.status).toBe(409)
  })

  it('refuses an answer that is not a yes or a no (400)', async () => {
    const { id, cookie } = await askToRelease()
    await settled(db(), id)
    const res = await t.request(`/api/messages/${id}/approval`, {
      method: 'POST',
      cookie,
      json: { approved: 'yes' },
    })
    expect(res.status).toBe(400)
  })
})
