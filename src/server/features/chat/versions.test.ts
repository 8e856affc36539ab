// Message versions (docs/decisions/012): edits and regenerations are siblings, the
// shown branch follows the selected version, and every count follows what the person wrote.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { type Message, messagePageSchema } from '#contract/messages.ts'
import { createApp } from '#server/app.ts'
import { messages, users } from '#server/db/schema/index.ts'
import { setUpAiTestApp } from '../../../../tests/helpers/ai-test-app.ts'
import { readEvents, replyText } from '../../../../tests/helpers/chat.ts'
import { TEST_ORIGIN } from '../../../../tests/helpers/test-app.ts'
import { ownerWithDefault, turnsOf } from '../../../../tests/helpers/thread-kit.ts'
import { reshowThread } from './shown-branch.ts'

const app = setUpAiTestApp((ai) => ({ OPENAI_API_KEY: 'test', OPENAI_BASE_URL: ai.openaiBaseUrl }))

const db = () => app.t.deps.database.db

const signedIn = () => ownerWithDefault(app.t)

async function send(cookie: string, json: Record<string, unknown>) {
  const res = await app.t.request('/api/messages', { method: 'POST', cookie, json })
  expect(res.status).toBe(200)
  const events = await readEvents(res)
  return { id: events[0]!.id!, end: events.at(-1)!, text: replyText(events) }
}

async function list(cookie: string, threadId: string): Promise<Message[]> {
  const res = await app.t.request(`/api/messages?threadId=${threadId}`, { cookie })
  expect(res.status).toBe(200)
  return messagePageSchema.parse(await res.json()).items
}

/** A version switch: its answer is the newest page of the branch now shown. */
async function select(cookie: string, id: string): Promise<Message[]> {
  const res = await app.t.request(`/api/messages/${id}/select`, { method: 'POST', cookie })
  expect(res.status).toBe(200)
  const page = messagePageSchema.parse(await res.json())
  expect(page.nextCursor).toBeNull()
  return page.items
}

const userRow = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!
const plant = async (cookie: string) => {
  const res = await app.t.request('/api/user/plant-tree', { method: 'POST', cookie })
  expect(res.status).toBe(200)
  return ((await res.json()) as { treesPlanted: number }).treesPlanted
}

/** A thread of three exchanges A, B, C in Default. */
async function threeTurns() {
  const who = await signedIn()
  const plain = { threadId: who.defaultId, isEcoMode: false, useOpenAI: false }
  const a = await send(who.cookie, { ...plain, content: 'first' })
  const b = await send(who.cookie, { ...plain, content: 'second' })
  const c = await send(who.cookie, { ...plain, content: 'third' })
  return { ...who, plain, a, b, c }
}

describe('editing a sent message', () => {
  it('adds a version of the turn; the replies after it stay on the old version', async () => {
    const { cookie, defaultId, plain, a, b, c } = await threeTurns()
    const edit = await send(cookie, { ...plain, content: 'second, edited', editOf: b.id })
    // The model saw only the branch before the turn: A's exchange and the edited text.
    expect(edit.text).toBe('Echo: second, edited\n(history: 3 messages, system: yes)')
    expect(edit.end).toMatchObject({ done: true, status: 'complete', userMessageCount: 4 })

    const shown = await list(cookie, defaultId)
    expect(shown.map((m) => m.content)).toEqual(['first', 'second, edited'])
    expect(shown[1]).toMatchObject({ id: edit.id, parentId: a.id, versionIds: [b.id, edit.id] })
    expect(shown[0]?.versionIds).toEqual([a.id])

    // Back to version 1: the rest of the conversation follows it.
    const back = await select(cookie, b.id)
    expect(back.map((m) => m.id)).toEqual([a.id, b.id, c.id])
    expect(await list(cookie, defaultId)).toEqual(back)
    const again = await select(cookie, edit.id)
    expect(again.map((m) => m.id)).toEqual([a.id, edit.id])
  })

  it('selecting an exchange on a branch not shown (a search match) shows its whole branch', async () => {
    const { cookie, defaultId, plain, a, b, c } = await threeTurns()
    const edit = await send(cookie, { ...plain, content: 'B2', editOf: b.id })
    expect((await list(cookie, defaultId)).map((m) => m.id)).toEqual([a.id, edit.id])
    // C follows B, which is not shown: selecting C brings B back with it.
    expect((await select(cookie, c.id)).map((m) => m.id)).toEqual([a.id, b.id, c.id])
    expect((await list(cookie, defaultId)).map((m) => m.id)).toEqual([a.id, b.id, c.id])
  })

  it('an edit and a regeneration are sends: admitted and reserved, then settled', async () => {
    const { cookie, userId, plain, b } = await threeTurns()
    const before = await userRow(userId)
    const regen = await send(cookie, { ...plain, content: '', regenerateOf: b.id })
    expect(regen.end).toMatchObject({ done: true, status: 'complete' })
    const [row] = await db().select().from(messages).where(eq(messages.id, regen.id))
    // Settled: nothing left reserved, and the reply's characters charged.
    expect(row?.reservedChars).toBe(0)
    const after = await userRow(userId)
    expect(after.aiReservedChars).toBe(0)
    expect(after.aiInputChars - before.aiInputChars).toBe('second'.length)
    expect(after.aiOutputChars).toBeGreaterThan(before.aiOutputChars)
  })

  it('a plain send follows the branch shown, and the model is sent that branch only', async () => {
    const { cookie, defaultId, plain, b } = await threeTurns()
    const edit = await send(cookie, { ...plain, content: 'B2', editOf: b.id })
    const onEdit = await send(cookie, { ...plain, content: 'after the edit' })
    expect(onEdit.text).toBe('Echo: after the edit\n(history: 5 messages, system: yes)')
    const [row] = await db().select().from(messages).where(eq(messages.id, onEdit.id))
    expect(row?.parentId).toBe(edit.id)

    await select(cookie, b.id)
    const onOld = await send(cookie, { ...plain, content: 'after the original' })
    // first, second, third and the new text: 3 exchanges of history.
    expect(onOld.text).toBe('Echo: after the original\n(history: 7 messages, system: yes)')
    expect((await list(cookie, defaultId)).map((m) => m.content)).toEqual([
      'first',
      'second',
      'third',
      'after the original',
    ])
    // Switching back to the edit brings its own continuation.
    expect((await select(cookie, edit.id)).map((m) => m.id)).toEqual([expect.any(String), edit.id, onEdit.id])
    expect((await list(cookie, defaultId)).at(-1)?.id).toBe(onEdit.id)
  })

  it('edits the first turn of a thread created by a send', async () => {
    const { cookie } = await signedIn()
    const first = await send(cookie, { content: 'hello', threadId: null })
    const threadId = first.end.actualThreadId ?? first.end.threadId!
    const edit = await send(cookie, { content: 'hello again', threadId, editOf: first.id })
    expect(edit.end.actualThreadId).toBeUndefined()
    expect(edit.text).toBe('Echo: hello again\n(history: 1 messages, system: yes)')
    const shown = await list(cookie, threadId)
    expect(shown).toHaveLength(1)
    expect(shown[0]).toMatchObject({ id: edit.id, parentId: null, versionIds: [first.id, edit.id] })
  })
})

describe('regenerating a reply', () => {
  it('adds a version with the same text, in another mode if asked, named by its model', async () => {
    const { cookie, userId, defaultId, b, c } = await threeTurns()
    const before = await userRow(userId)
    const again = await send(cookie, {
      threadId: defaultId,
      isEcoMode: false,
      useOpenAI: true,
      regenerateOf: c.id,
    })
    expect(again.text).toBe('Echo: third\n(history: 5 messages, system: yes)')
    // Nothing new was written by the person: no count, so no tree and no upgrade prompt.
    expect(again.end).toEqual({ id: again.id, threadId: defaultId, done: true, status: 'complete' })

    const shown = await list(cookie, defaultId)
    expect(shown.at(-1)).toMatchObject({
      id: again.id,
      content: 'third',
      parentId: b.id,
      chatModel: 'chatgpt',
      modelId: 'gpt-3.5-turbo',
      modelName: 'GPT-3.5 Turbo',
      versionIds: [c.id, again.id],
    })
    expect(shown[0]).toMatchObject({ modelId: 'gemini-2.5-pro', modelName: 'Gemini 2.5 Pro' })
    expect(shown.at(-1)?.completedAt).toEqual(expect.any(String))

    // The model really ran: usage and CO2 count it.
    const after = await userRow(userId)
    expect(after.aiOutputChars).toBe(before.aiOutputChars + again.text.length)
    expect(after.aiInputChars).toBeGreaterThan(before.aiInputChars)
    expect(after.co2Saved).not.toBe(before.co2Saved)

    // Trees follow the 3 messages sent, not the regeneration: one tree, not two.
    expect(await plant(cookie)).toBe(1)
    const regen2 = await send(cookie, {
      threadId: defaultId,
      isEcoMode: false,
      useOpenAI: false,
      regenerateOf: c.id,
    })
    expect(regen2.end.userMessageCount).toBeUndefined()
    expect(await plant(cookie)).toBe(1)
    expect((await list(cookie, defaultId)).at(-1)?.versionIds).toEqual([c.id, again.id, regen2.id])
  })

  it('Retry of a failed reply is a regeneration', async () => {
    const { cookie, defaultId } = await signedIn()
    app.ai.setScenario('upstream-error')
    const res = await app.t.request('/api/messages', {
      method: 'POST',
      cookie,
      json: { content: 'will fail', threadId: defaultId },
    })
    const failed = await readEvents(res)
    expect(failed.at(-1)).toMatchObject({ status: 'failed' })
    app.ai.reset()
    const retry = await send(cookie, { threadId: defaultId, regenerateOf: failed[0]!.id })
    expect(retry.text).toBe('Echo: will fail\n(history: 1 messages, system: yes)')
    const shown = await list(cookie, defaultId)
    expect(shown).toHaveLength(1)
    expect(shown[0]).toMatchObject({
      id: retry.id,
      status: 'complete',
      versionIds: [failed[0]!.id, retry.id],
    })
  })
})

describe('counting', () => {
  it("'@' copies never count as sent: trees, the sent count and the CO2 chart", async () => {
    const { cookie, defaultId, plain } = await signedIn().then((w) => ({
      ...w,
      plain: { threadId: w.defaultId, isEcoMode: false, useOpenAI: false },
    }))
    const one = await send(cookie, { ...plain, content: 'Second message with **bold** and `inline code`' })
    await send(cookie, { ...plain, content: 'two' })
    for (let i = 0; i < 2; i++) {
      const res = await app.t.request('/api/threads/create-from-message', {
        method: 'POST',
        cookie,
        json: { messageId: one.id },
      })
      expect(res.status).toBe(201)
      // Titles are plain text.
      expect(((await res.json()) as { title: string }).title).toBe('Second message with bold and inline code')
    }
    expect(await plant(cookie)).toBe(1)
    const third = await send(cookie, { ...plain, content: 'three' })
    expect(third.end.userMessageCount).toBe(3)

    const history = await app.t.request('/api/metrics/co2/history?days=7', { cookie })
    const days = ((await history.json()) as { days: { saved: number; messages: number }[] }).days
    expect(days.reduce((n, d) => n + d.messages, 0)).toBe(3)
    const chartSaved = days.reduce((n, d) => n + d.saved, 0)
    const headline = (await (await app.t.request('/api/metrics/co2', { cookie })).json()) as number
    expect(chartSaved).toBeCloseTo(headline, 9)
    expect(defaultId).toBeTruthy()
  })
})

describe('the migration of existing conversations', () => {
  it('chains each thread as one branch, oldest first, and keeps it shown as it was', async () => {
    const { cookie, userId, defaultId } = await signedIn()
    const base = Date.UTC(2026, 0, 1)
    const rows = await db()
      .insert(messages)
      .values(
        ['a', 'b', 'c'].map((content, i) => ({
          userId,
          threadId: defaultId,
          content,
          response: `re ${content}`,
          status: 'complete' as const,
          chatModel: 'gemini' as const,
          createdAt: new Date(base + i * 1000),
          selectedAt: new Date(base + 10_000),
        })),
      )
      .returning()
    const file = path.resolve(import.meta.dirname, '../../db/migrations/0006_message_versions_sql.sql')
    await db().execute(sql.raw(readFileSync(file, 'utf8')))
    const byContent = new Map(
      (await db().select().from(messages).where(eq(messages.userId, userId))).map((m) => [m.content, m]),
    )
    expect(byContent.get('a')?.parentId).toBeNull()
    expect(byContent.get('b')?.parentId).toBe(rows[0]?.id)
    expect(byContent.get('c')?.parentId).toBe(rows[1]?.id)
    expect(byContent.get('c')?.selectedAt.getTime()).toBe(base + 2000)
    // The shown turns (migration 0012 marked the branch as reshowThread does), then the page.
    await reshowThread(db(), defaultId)
    expect((await list(cookie, defaultId)).map((m) => m.content)).toEqual(['a', 'b', 'c'])
  })
})

describe('refusals', () => {
  it('answers 4xx with a code and stores nothing', async () => {
    const { cookie, defaultId, b } = await threeTurns()
    const other = await signedIn()
    const count = async () => (await db().select().from(messages)).length
    const before = await count()
    const post = (json: Record<string, unknown>, who = cookie) =>
      app.t.request('/api/messages', { method: 'POST', cookie: who, json })

    const unknown = await post({ content: 'x', threadId: defaultId, editOf: crypto.randomUUID() })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ code: 'not_found:message' })
    // Someone else's message is as unknown as a missing one.
    const foreign = await post({ content: 'x', threadId: other.defaultId, regenerateOf: b.id }, other.cookie)
    expect(foreign.status).toBe(404)
    const both = await post({ content: 'x', threadId: defaultId, editOf: b.id, regenerateOf: b.id })
    expect(both.status).toBe(400)
    expect(await both.json()).toMatchObject({ code: 'bad_request:input' })
    const empty = await post({ content: '  ', threadId: defaultId, editOf: b.id })
    expect(empty.status).toBe(400)
    const badId = await post({ content: 'x', threadId: defaultId, editOf: 'not-a-uuid' })
    expect(badId.status).toBe(400)
    expect(await count()).toBe(before)

    const sel = await app.t.request(`/api/messages/${crypto.randomUUID()}/select`, { method: 'POST', cookie })
    expect(sel.status).toBe(404)
    const selForeign = await app.t.request(`/api/messages/${b.id}/select`, {
      method: 'POST',
      cookie: other.cookie,
    })
    expect(selForeign.status).toBe(404)
    const selBad = await app.t.request('/api/messages/nope/select', { method: 'POST', cookie })
    expect(selBad.status).toBe(400)
    const anon = await app.t.request(`/api/messages/${b.id}/select`, { method: 'POST' })
    expect(anon.status).toBe(401)
  })
})

describe('an edit refused by a limit', () => {
  it('leaves the thread as it was, and the next send follows its last turn', async () => {
    const { cookie, userId, defaultId, plain, b, c } = await threeTurns()
    const before = await list(cookie, defaultId)
    // As if three replies were being written elsewhere: the edit is refused (429).
    await db().update(users).set({ aiGenerating: 3 }).where(eq(users.id, userId))
    for (const revise of [{ editOf: b.id }, { regenerateOf: b.id }]) {
      const refused = await app.t.request('/api/messages', {
        method: 'POST',
        cookie,
        json: { ...plain, content: 'second, edited', ...revise },
      })
      expect(refused.status).toBe(429)
      expect(await list(cookie, defaultId)).toEqual(before)
    }
    await db().update(users).set({ aiGenerating: 0 }).where(eq(users.id, userId))
    const next = await send(cookie, { ...plain, content: 'fourth' })
    const after = await list(cookie, defaultId)
    expect(after.map((m) => m.content)).toEqual(['first', 'second', 'third', 'fourth'])
    expect(after[3]).toMatchObject({ id: next.id, parentId: c.id })
  })
})

describe('sends racing in one thread', () => {
  it('chains sends made at once in one thread (two tabs, two nodes): one branch, one row per turn', async () => {
    const { cookie, defaultId } = await signedIn()
    await send(cookie, { content: 'first', threadId: defaultId })
    // A second node on the same database: only the database orders them.
    const nodeB = createApp(app.t.deps)
    const sendOn = (node: { request: typeof app.t.app.request }, content: string) =>
      node.request(`${TEST_ORIGIN}/api/messages`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ content, threadId: defaultId }),
      })
    const responses = await Promise.all([
      sendOn(app.t.app, 'racing 0'),
      sendOn(nodeB, 'racing 1'),
      sendOn(app.t.app, 'racing 2'),
    ])
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200])
    await Promise.all(responses.map(readEvents))
    const shown = await list(cookie, defaultId)
    expect(shown.map((m) => m.content.replace(/\d$/, 'n'))).toEqual([
      'first',
      'racing n',
      'racing n',
      'racing n',
    ])
    // Each follows the one before: no turn has a second version.
    for (const [i, m] of shown.entries()) {
      expect(m.versionIds).toEqual([m.id])
      expect(m.parentId).toBe(i === 0 ? null : shown[i - 1]!.id)
    }
    const rows = await turnsOf(db(), defaultId)
    expect(rows.map((r) => `${r.depth}:${r.shown}`).sort()).toEqual(['0:true', '1:true', '2:true', '3:true'])
  })
})
