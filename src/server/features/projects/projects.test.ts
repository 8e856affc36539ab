// Custom instructions, projects with their files (knowledge retrieval) and temporary chats, through
// the API against the AI stand-in: what the model receives is read from its recorded requests.
import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Message } from '#contract/messages.ts'
import type { Thread } from '#contract/threads.ts'
import { messages, threads, users } from '#server/db/schema/index.ts'
import { setUpAiTestApp } from '../../../../tests/helpers/ai-test-app.ts'
import { readEvents, replyText } from '../../../../tests/helpers/chat.ts'
import { addProjectFile, documentWithFact } from '../../../../tests/helpers/knowledge.ts'

const env = setUpAiTestApp()

/** The system prompt of the model's last request (Gemini's wire shape). */
function lastSystem(): string {
  const body = env.ai.requests.at(-1)?.body as { systemInstruction?: { parts?: { text: string }[] } }
  return (body?.systemInstruction?.parts ?? []).map((p) => p.text).join('')
}
const lastBodyText = () => JSON.stringify(env.ai.requests.at(-1)?.body ?? {})

async function send(cookie: string, json: Record<string, unknown>) {
  const res = await env.t.request('/api/messages', { method: 'POST', cookie, json })
  expect(res.status).toBe(200)
  return readEvents(res)
}

describe('custom instructions', () => {
  it('are stored, reach the model in the system prompt, count as input, and can be turned off', async () => {
    const { cookie } = await env.t.signUp()
    const empty = await env.t.request('/api/settings/instructions', { cookie })
    expect(await empty.json()).toEqual({ aboutMe: '', howToRespond: '', enabled: true })
    const put = await env.t.request('/api/settings/instructions', {
      method: 'PUT',
      cookie,
      json: { aboutMe: 'I grow tomatoes in Lyon.', howToRespond: 'Answer in haiku.', enabled: true },
    })
    expect(put.status).toBe(200)
    await send(cookie, { content: 'Hello there' })
    expect(lastSystem()).toContain('I grow tomatoes in Lyon.')
    expect(lastSystem()).toContain('Answer in haiku.')

    await env.t.request('/api/settings/instructions', {
      method: 'PUT',
      cookie,
      json: { aboutMe: 'I grow tomatoes in Lyon.', howToRespond: 'Answer in haiku.', enabled: false },
    })
    await send(cookie, { content: 'Hello again' })
    expect(lastSystem()).not.toContain('tomatoes')
    expect(await (await env.t.request('/api/settings/instructions', { cookie })).json()).toMatchObject({
      enabled: false,
      aboutMe: 'I grow tomatoes in Lyon.',
    })
  })

  it('refuses instructions over 1,500 characters with a clear message', async () => {
    const { cookie } = await env.t.signUp()
    const res = await env.t.request('/api/settings/instructions', {
      method: 'PUT',
      cookie,
      json: { aboutMe: 'x'.repeat(1501), howToRespond: '', enabled: true },
    })
    expect(res.status).toBe(400)
    expect(JSON.stringify(await res.json())).toContain('at most 1,500 characters')
  })

  it('are charged as input like any text', async () => {
    const { cookie, user } = await env.t.signUp()
    const db = env.t.deps.database.db
    const charged = async () =>
      (
        await db
          .select({ n: users.aiInputChars })
          .from(users)
          .where(eq(users.id, String(user.id)))
      )[0]?.n ?? 0
    await send(cookie, { content: 'Count me' })
    const plain = await charged()
    await env.t.request('/api/settings/instructions', {
      method: 'PUT',
      cookie,
      json: { aboutMe: 'a'.repeat(1000), howToRespond: '', enabled: true },
    })
    await send(cookie, { content: 'Count me' })
    expect((await charged()) - plain).toBeGreaterThan(plain + 1000 - 1)
  })
})

describe('projects', () => {
  it('are created, renamed, listed; a send in one makes its thread there with its instructions', async () => {
    const { cookie } = await env.t.signUp()
    const created = await env.t.request('/api/projects', {
      method: 'POST',
      cookie,
      json: { name: 'Garden', instructions: 'Always mention the soil.' },
    })
    expect(created.status).toBe(201)
    const project = await created.json()
    const renamed = await env.t.request(`/api/projects/${project.id}`, {
      method: 'PUT',
      cookie,
      json: { name: 'Vegetable garden', instructions: 'Always mention the soil.' },
    })
    expect((await renamed.json()).name).toBe('Vegetable garden')
    const list = await (await env.t.request('/api/projects', { cookie })).json()
    expect(list.map((p: { name: string }) => p.name)).toEqual(['Vegetable garden'])

    const events = await send(cookie, { content: 'What should I plant?', projectId: project.id })
    expect(replyText(events)).not.toBe('')
    expect(lastSystem()).toContain('Always mention the soil.')
    const threadId = events.find((e) => e.threadId)?.threadId as string
    const threadList: Thread[] = await (await env.t.request('/api/threads', { cookie })).json()
    expect(threadList.find((t) => t.id === threadId)?.projectId).toBe(project.id)
  })

  it('moves threads in and out, refuses the Default thread and other people’s projects', async () => {
    const { cookie } = await env.t.signUp()
    const other = await env.t.signUp()
    const mine = await (
      await env.t.request('/api/projects', { method: 'POST', cookie, json: { name: 'A' } })
    ).json()
    const theirs = await (
      await env.t.request('/api/projects', { method: 'POST', cookie: other.cookie, json: { name: 'B' } })
    ).json()
    const events = await send(cookie, { content: 'A thread to move' })
    const threadId = events.find((e) => e.threadId)?.threadId as string
    const move = (projectId: string | null, id = threadId) =>
      env.t.request(`/api/threads/${id}/project`, { method: 'PUT', cookie, json: { projectId } })
    expect((await move(mine.id)).status).toBe(200)
    const db = env.t.deps.database.db
    const projectOf = async () =>
      (await db.select().from(threads).where(eq(threads.id, threadId)))[0]?.projectId
    expect(await projectOf()).toBe(mine.id)
    expect((await move(theirs.id)).status).toBe(404)
    expect((await move(null)).status).toBe(200)
    expect(await projectOf()).toBeNull()
    const [def] = await db
      .select()
      .from(threads)
      .where(
        sql`${threads.isDefault} and ${threads.userId} = (select user_id from threads where id = ${threadId})`,
      )
    expect((await move(mine.id, String(def?.id))).status).toBe(403)
    // A send naming someone else's project is refused before anything is stored.
    const res = await env.t.request('/api/messages', {
      method: 'POST',
      cookie,
      json: { content: 'sneaky', projectId: theirs.id },
    })
    expect(res.status).toBe(404)
  })

  it('deleting asks what happens to its threads: kept out of it, or deleted with it', async () => {
    const { cookie } = await env.t.signUp()
    const db = env.t.deps.database.db
    const make = async (name: string) =>
      (await env.t.request('/api/projects', { method: 'POST', cookie, json: { name } })).json()
    const keep = await make('Keep')
    const drop = await make('Drop')
    const kept = (await send(cookie, { content: 'kept thread', projectId: keep.id })).find((e) => e.threadId)
      ?.threadId as string
    const dropped = (await send(cookie, { content: 'dropped thread', projectId: drop.id })).find(
      (e) => e.threadId,
    )?.threadId as string
    expect((await env.t.request(`/api/projects/${keep.id}`, { method: 'DELETE', cookie })).status).toBe(400)
    expect(
      (await env.t.request(`/api/projects/${keep.id}?threads=keep`, { method: 'DELETE', cookie })).status,
    ).toBe(200)
    expect(
      (await env.t.request(`/api/projects/${drop.id}?threads=delete`, { method: 'DELETE', cookie })).status,
    ).toBe(200)
    const rows = await db.select({ id: threads.id, projectId: threads.projectId }).from(threads)
    expect(rows.find((r) => r.id === kept)).toEqual({ id: kept, projectId: null })
    expect(rows.find((r) => r.id === dropped)).toBeUndefined()
  })

  it('retrieves the passages of its files that match a message instead of sending the files', async () => {
    const { cookie } = await env.t.signUp()
    const project = await (
      await env.t.request('/api/projects', { method: 'POST', cookie, json: { name: 'Island' } })
    ).json()
    const doc = documentWithFact(1100, 700)
    expect(doc.length).toBeGreaterThan(200_000)
    const file = await addProjectFile(env.t, cookie, project.id, 'island-notes.txt', doc)
    expect(file).toMatchObject({ name: 'island-notes.txt', chars: doc.length })
    expect(file.passages).toBeGreaterThan(100)
    const files = await (await env.t.request(`/api/projects/${project.id}/files`, { cookie })).json()
    expect(files).toHaveLength(1)

    const events = await send(cookie, {
      content: 'How many animals were in the quokka colony?',
      projectId: project.id,
    })
    const sent = lastBodyText()
    expect(sent).toContain('quokka colony numbered 412 animals')
    expect(sent.length).toBeLessThan(doc.length / 10)
    const threadId = events.find((e) => e.threadId)?.threadId as string
    const { items: stored }: { items: Message[] } = await (
      await env.t.request(`/api/messages?threadId=${threadId}`, { cookie })
    ).json()
    expect(stored[0]?.knowledge?.filesChars).toBe(doc.length)
    expect(stored[0]?.knowledge?.passages[0]?.text).toContain('412 animals')
    expect(stored[0]?.knowledge?.passages[0]?.fileName).toBe('island-notes.txt')
  })

  it('refuses an image as a project file', async () => {
    const { cookie } = await env.t.signUp()
    const project = await (
      await env.t.request('/api/projects', { method: 'POST', cookie, json: { name: 'P' } })
    ).json()
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(64).fill(0)])
    const form = new FormData()
    form.append('file', new File([png], 'pic.png', { type: 'image/png' }))
    const res = await env.t.request(`/api/projects/${project.id}/files`, {
      method: 'POST',
      cookie,
      body: form,
    })
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
  })
})

describe('temporary chat', () => {
  it('answers with the history it carries and stores no thread or message, but counts usage', async () => {
    const { cookie, user } = await env.t.signUp()
    const db = env.t.deps.database.db
    const count = async () => ({
      threads: (
        await db
          .select()
          .from(threads)
          .where(eq(threads.userId, String(user.id)))
      ).length,
      messages: (
        await db
          .select()
          .from(messages)
          .where(eq(messages.userId, String(user.id)))
      ).length,
    })
    const before = await count()
    const events = await send(cookie, {
      content: 'And what about the second one?',
      temporary: true,
      history: [{ content: 'Name two rivers in France', response: 'The Loire and the Rhône.' }],
    })
    expect(replyText(events)).not.toBe('')
    expect(events.at(-1)).toMatchObject({ done: true, userMessageCount: 1 })
    expect(lastBodyText()).toContain('The Loire and the Rhône.')
    expect(await count()).toEqual(before)
    const [row] = await db
      .select()
      .from(users)
      .where(eq(users.id, String(user.id)))
    expect(row?.aiInputChars).toBeGreaterThan(0)
    expect(row?.sentMessages).toBe(1)
  })

  it('refuses a temporary send naming a thread, and a history past its bounds', async () => {
    const { cookie } = await env.t.signUp()
    const events = await send(cookie, { content: 'kept' })
    const threadId = events.find((e) => e.threadId)?.threadId
    const withThread = await env.t.request('/api/messages', {
      method: 'POST',
      cookie,
      json: { content: 'x', temporary: true, threadId },
    })
    expect(withThread.status).toBe(400)
    const tooLong = await env.t.request('/api/messages', {
      method: 'POST',
      cookie,
      json: {
        content: 'x',
        temporary: true,
        history: Array.from({ length: 51 }, () => ({ content: 'q', response: 'a' })),
      },
    })
    expect(tooLong.status).toBe(400)
    expect(JSON.stringify(await tooLong.json())).toContain('at most 50 earlier exchanges')
    const notTemporary = await env.t.request('/api/messages', {
      method: 'POST',
      cookie,
      json: { content: 'x', history: [] },
    })
    expect(notTemporary.status).toBe(400)
  })
})
