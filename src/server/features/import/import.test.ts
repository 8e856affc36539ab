import { readFileSync } from 'node:fs'
import { eq, sql } from 'drizzle-orm'
import { strToU8, zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXPORT_VERSION, exportedThreadSchema } from '#contract/export.ts'
import { IMPORT_LIMITS, importReportSchema } from '#contract/import.ts'
import { messagePageSchema } from '#contract/messages.ts'
import { threadListSchema } from '#contract/threads.ts'
import { messages, threads, uploads, users } from '#server/db/schema/index.ts'
import { reshowThread } from '#server/features/chat/shown-branch.ts'
import { createDiskStorage } from '#server/lib/storage.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { lorisMessage, lorisThreadExport } from './loris-export-kit.ts'
import { parseImportFile } from './parse.ts'

const PNG = new Uint8Array(readFileSync('tests/fixtures/image.png'))

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const node = (id: string, parent: string | null, children: string[], message: unknown) => ({
  id,
  parent,
  children,
  message,
})
const msg = (role: string, text: string | unknown[], time: number, model?: string) => ({
  author: { role },
  content: { content_type: 'text', parts: Array.isArray(text) ? text : [text] },
  create_time: time,
  metadata: model ? { model_slug: model } : {},
})

/** A ChatGPT conversation with a regenerated answer: two branches under the first question. */
function chatgptConversations() {
  return [
    {
      title: 'Lorises',
      conversation_id: 'conv-1',
      create_time: 1_700_000_000,
      update_time: 1_700_000_500,
      current_node: 'a2b',
      mapping: {
        root: node('root', null, ['sys'], null),
        sys: node('sys', 'root', ['u1'], msg('system', '', 1_700_000_000)),
        u1: node('u1', 'sys', ['a1', 'a1b'], msg('user', 'What is a slow loris?', 1_700_000_010)),
        a1: node('a1', 'u1', [], msg('assistant', 'An old answer.', 1_700_000_020, 'gpt-4')),
        a1b: node(
          'a1b',
          'u1',
          ['u2'],
          msg('assistant', 'A small nocturnal primate.', 1_700_000_030, 'gpt-4o'),
        ),
        u2: node(
          'u2',
          'a1b',
          ['a2b'],
          msg('user', ['Are they venomous?', { content_type: 'image_asset_pointer' }], 1_700_000_100),
        ),
        a2b: node('a2b', 'u2', [], msg('assistant', 'Yes: a gland on the elbow.', 1_700_000_110, 'gpt-4o')),
      },
    },
    {
      title: 'Empty',
      conversation_id: 'conv-2',
      create_time: 1_700_001_000,
      current_node: 'r',
      mapping: { r: node('r', null, [], null) },
    },
  ]
}

async function importFile(cookie: string, bytes: Uint8Array, name: string) {
  const form = new FormData()
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], name))
  return t.request('/api/import', { method: 'POST', cookie, body: form })
}

async function threadsWithMessages(cookie: string) {
  const list = threadListSchema.parse(await (await t.request('/api/threads', { cookie })).json())
  return Promise.all(
    list.map(async (th) => ({
      title: th.title,
      isDefault: th.isDefault,
      messages: messagePageSchema
        .parse(await (await t.request(`/api/messages?threadId=${th.id}`, { cookie })).json())
        .items.map((m) => ({
          content: m.content,
          response: m.response,
          chatModel: m.chatModel,
          createdAt: m.createdAt,
        })),
    })),
  )
}

describe('POST /api/import (ChatGPT)', () => {
  it('imports the current branch with model names and dates, reports what was left out, and only once', async () => {
    const { cookie, user } = await t.signUp()
    const json = strToU8(JSON.stringify(chatgptConversations()))
    const res = await importFile(cookie, json, 'conversations.json')
    expect(res.status).toBe(200)
    const report = importReportSchema.parse(await res.json())
    expect(report).toMatchObject({ source: 'chatgpt', threadsImported: 1, messagesImported: 2 })
    expect(report.skipped).toEqual([{ title: 'Empty', reason: 'no text messages' }])
    expect(report.notes.join(' ')).toContain('1 picture or other non-text part left out')
    expect(report.notes.join(' ')).toContain('1 edited or regenerated alternative left out')

    const db = t.deps.database.db
    const rows = await db
      .select()
      .from(messages)
      .where(eq(messages.userId, user.id as string))
    const sorted = rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    expect(
      sorted.map((m) => [m.content, m.response, m.modelId, m.chatModel, m.createdAt.toISOString()]),
    ).toEqual([
      [
        'What is a slow loris?',
        'A small nocturnal primate.',
        'gpt-4o',
        'chatgpt',
        '2023-11-14T22:13:30.000Z',
      ],
      ['Are they venomous?', 'Yes: a gland on the elbow.', 'gpt-4o', 'chatgpt', '2023-11-14T22:15:00.000Z'],
    ])
    // Written by the person, but sent to ChatGPT: no tree for them here.
    expect(sorted.map((m) => m.origin)).toEqual(['import', 'import'])
    const [owner] = await db
      .select()
      .from(users)
      .where(eq(users.id, user.id as string))
    expect(owner?.sentMessages).toBe(0)
    const [thread] = await db.select().from(threads).where(eq(threads.importSource, 'chatgpt:conv-1'))
    expect(thread).toMatchObject({ title: 'Lorises', createdAt: new Date(1_700_000_000_000) })
    // One chain (decision 012): the second follows the first, so the thread shows both.
    expect(sorted[0]?.parentId).toBeNull()
    expect(sorted[1]?.parentId).toBe(sorted[0]?.id)
    const shown = messagePageSchema.parse(
      await (await t.request(`/api/messages?threadId=${thread!.id}`, { cookie })).json(),
    ).items
    expect(shown.map((m) => m.content)).toEqual(['What is a slow loris?', 'Are they venomous?'])

    // The same data again, this time inside ChatGPT's zip: nothing new.
    const zip = zipSync({ 'chat.html': strToU8('<html></html>'), 'conversations.json': json })
    const again = importReportSchema.parse(await (await importFile(cookie, zip, 'export.zip')).json())
    expect(again).toMatchObject({ threadsImported: 0, messagesImported: 0 })
    expect(again.skipped).toContainEqual({ title: 'Lorises', reason: 'already imported' })
    expect(
      (
        await db
          .select()
          .from(threads)
          .where(eq(threads.userId, user.id as string))
      ).length,
    ).toBe(2)
  })

  it('migration 0016 takes exchanges imported from ChatGPT before it out of the sent count', async () => {
    const { user } = await t.signUp()
    const userId = user.id as string
    const db = t.deps.database.db
    const [imported] = await db
      .insert(threads)
      .values({ userId, title: 'From ChatGPT', chatModel: 'chatgpt', importSource: 'chatgpt:old-1' })
      .returning()
    const [own] = await db.insert(threads).values({ userId, title: 'Here', chatModel: 'gemini' }).returning()
    const exchange = (threadId: string, content: string) => ({
      userId,
      threadId,
      content,
      response: 'ok',
      status: 'complete' as const,
      chatModel: 'gemini' as const,
      origin: 'sent' as const,
    })
    // As an older build's import stored them: 'sent', counted.
    await db
      .insert(messages)
      .values([exchange(imported!.id, 'a'), exchange(imported!.id, 'b'), exchange(own!.id, 'c')])
    const sent = async () => (await db.select().from(users).where(eq(users.id, userId)))[0]?.sentMessages
    expect(await sent()).toBe(3)
    const file = new URL('../../db/migrations/0016_chatgpt_imports_plant_no_trees.sql', import.meta.url)
    await db.execute(sql.raw(readFileSync(file, 'utf8')))
    expect(await sent()).toBe(1)
    const origins = await db
      .select({ content: messages.content, origin: messages.origin })
      .from(messages)
      .where(eq(messages.userId, userId))
    expect(Object.fromEntries(origins.map((m) => [m.content, m.origin]))).toEqual({
      a: 'import',
      b: 'import',
      c: 'sent',
    })
  })

  // Decision 030: the lists opened next are planned on statistics that include the import.
  it('analyses the tables a large import filled, and leaves them alone after a small one', async () => {
    const { cookie } = await t.signUp()
    const rowsOf = async () => {
      const result = (await t.deps.database.db.execute(
        sql`select relname as table, reltuples::float8 as rows from pg_class
          where relname in ('threads', 'messages') and relnamespace = 'public'::regnamespace order by relname`,
      )) as unknown as { rows: { table: string; rows: number }[] }
      return Object.fromEntries(result.rows.map((r) => [r.table, Number(r.rows)]))
    }
    const conversation = (id: string, exchanges: number) => {
      const mapping: Record<string, unknown> = { root: node('root', null, [], null) }
      let parent = 'root'
      for (let i = 0; i < exchanges; i++)
        for (const role of ['user', 'assistant']) {
          const key = `${role}-${i}`
          mapping[key] = node(key, parent, [], msg(role, `${role} ${i}`, 1_700_000_000 + i))
          ;(mapping[parent] as { children: string[] }).children.push(key)
          parent = key
        }
      return { title: id, conversation_id: id, create_time: 1_700_000_000, current_node: parent, mapping }
    }
    const small = strToU8(JSON.stringify([conversation('small', 3)]))
    const before = await rowsOf()
    expect((await importFile(cookie, small, 'conversations.json')).status).toBe(200)
    expect(await rowsOf()).toEqual(before)

    const large = strToU8(JSON.stringify([conversation('large', 80)]))
    expect((await importFile(cookie, large, 'conversations.json')).status).toBe(200)
    const after = await rowsOf()
    // Its 80 exchanges pass 50 and a tenth of the table: analysed, so counted. Its one thread does not.
    expect(after.messages).toBeGreaterThanOrEqual(83)
    expect(after.threads).toBe(before.threads)
  })

  it('answers a clear 4xx for files that are not exports, and 401 without a session', async () => {
    const { cookie } = await t.signUp()
    for (const [bytes, name] of [
      [strToU8('hello'), 'notes.txt'],
      [strToU8('[{"title": "x", '), 'conversations.json'],
      [zipSync({ 'a.txt': strToU8('x') }), 'other.zip'],
    ] as const) {
      const res = await importFile(cookie, bytes, name)
      expect(res.status).toBe(422)
      const body = await res.json()
      expect(body.code).toBe('unprocessable:import')
      expect(body.message).toBeTruthy()
    }
    const form = new FormData()
    const none = await t.request('/api/import', { method: 'POST', cookie, body: form })
    expect(none.status).toBe(400)
    expect((await importFile('', strToU8('[]'), 'x.json')).status).toBe(401)
  })

  it('refuses files over the caps', async () => {
    const json = strToU8(JSON.stringify(chatgptConversations()))
    await expect(parseImportFile(json, { ...IMPORT_LIMITS, maxThreads: 0 })).rejects.toMatchObject({
      code: 'unprocessable:import',
      message: expect.stringContaining('The file holds more than 0 conversations'),
    })
    const zip = zipSync({ 'conversations.json': json })
    await expect(parseImportFile(zip, { ...IMPORT_LIMITS, maxUnzippedBytes: 100 })).rejects.toMatchObject({
      code: 'unprocessable:import',
    })
  })
})

describe('round trip through a Loris export', () => {
  it('export, delete the account, sign up again, import: the same threads and messages', async () => {
    const { cookie } = await t.signUp()
    const db = t.deps.database.db
    const me = await (await t.request('/api/user', { cookie })).json()
    const [def] = threadListSchema.parse(await (await t.request('/api/threads', { cookie })).json())
    await db.insert(messages).values({
      userId: me.id,
      threadId: def!.id,
      content: 'Hello Default',
      response: 'Hi!',
      chatModel: 'gemini',
      status: 'complete',
      createdAt: new Date('2025-04-01T08:00:00Z'),
    })
    const [other] = await db
      .insert(threads)
      .values({
        userId: me.id,
        title: 'Garden',
        chatModel: 'loris',
        isFavorite: true,
        createdAt: new Date('2025-04-02'),
      })
      .returning()
    const key = await createDiskStorage(`${t.deps.env.DATA_DIR}/uploads`).put(PNG)
    const [upload] = await db
      .insert(uploads)
      .values({
        userId: me.id,
        storageKey: key,
        mimeType: 'image/png',
        kind: 'image',
        fileName: 'plot.png',
        size: PNG.length,
      })
      .returning()
    const [tomatoes] = await db
      .insert(messages)
      .values({
        userId: me.id,
        threadId: other!.id,
        uploadId: upload!.id,
        mediaType: 'image',
        mediaUrl: `/api/uploads/${upload!.id}`,
        content: 'Tomatoes?',
        response: 'Plant in May.',
        chatModel: 'loris',
        status: 'complete',
        modelId: 'eco-1',
        createdAt: new Date('2025-04-02T09:00:00Z'),
      })
      .returning()
    await db.insert(messages).values([
      {
        userId: me.id,
        threadId: other!.id,
        // The second turn follows the first (decision 012).
        parentId: tomatoes!.id,
        content: 'Basil?',
        response: 'Next to them.',
        chatModel: 'gemini',
        status: 'interrupted',
        errorMessage: 'Reply stopped',
        createdAt: new Date('2025-04-02T09:05:00Z'),
      },
    ])
    // Rows written around the app: their threads' shown branches marked as a send would.
    await reshowThread(db, def!.id)
    await reshowThread(db, other!.id)
    const before = await threadsWithMessages(cookie)
    const exported = new Uint8Array(await (await t.request('/api/export', { cookie })).arrayBuffer())
    // One thread's JSON export is importable too.
    const single = exportedThreadSchema.parse(
      await (await t.request(`/api/threads/${other!.id}/export`, { cookie })).json(),
    )

    expect((await t.request('/api/delete-account', { method: 'POST', cookie })).status).toBe(200)
    const again = await t.signUp(me.email)
    const res = await importFile(again.cookie, exported, 'loris-data.zip')
    expect(res.status).toBe(200)
    const report = importReportSchema.parse(await res.json())
    expect(report).toMatchObject({ source: 'loris', threadsImported: 2, messagesImported: 3, skipped: [] })
    const after = await threadsWithMessages(again.cookie)
    expect(after).toEqual(before)
    const list = threadListSchema.parse(
      await (await t.request('/api/threads', { cookie: again.cookie })).json(),
    )
    expect(list.find((th) => th.title === 'Garden')?.isFavorite).toBe(true)
    // The picture came back, served to its new owner.
    const garden = messagePageSchema.parse(
      await (
        await t.request(`/api/messages?threadId=${list.find((th) => th.title === 'Garden')!.id}`, {
          cookie: again.cookie,
        })
      ).json(),
    ).items
    const picture = await t.request(garden[0]!.mediaUrl!, { cookie: again.cookie })
    expect(picture.status).toBe(200)
    expect(new Uint8Array(await picture.arrayBuffer())).toEqual(PNG)

    const twice = importReportSchema.parse(
      await (await importFile(again.cookie, exported, 'loris-data.zip')).json(),
    )
    expect(twice).toMatchObject({ threadsImported: 0, messagesImported: 0 })
    const one = importReportSchema.parse(
      await (await importFile(again.cookie, strToU8(JSON.stringify(single)), 'garden.json')).json(),
    )
    expect(one).toMatchObject({
      threadsImported: 0,
      skipped: [{ title: 'Garden', reason: 'already imported' }],
    })
    expect(await threadsWithMessages(again.cookie)).toEqual(before)
  })
})

describe('what an import counts (decision 040)', () => {
  // A Loris export says how each exchange came to be; a crafted one said 'sent' for each, and
  // every two imported exchanges planted a tree.
  it("a Loris export's exchanges count as no message sent and plant no tree, whatever the file says", async () => {
    const { cookie, user } = await t.signUp()
    const userId = user.id as string
    const db = t.deps.database.db
    const account = async () => (await db.select().from(users).where(eq(users.id, userId)))[0]
    const before = await account()
    const at = (s: number) => new Date(Date.UTC(2025, 6, 1, 9, 0, s)).toISOString()
    const origins = ['sent', 'sent', 'sent', 'sent', 'sent', 'sent', 'edit', 'edit', 'regenerate', 'copy']
    const messagesOf = origins.map((origin, i) =>
      lorisMessage(at(i), {
        id: `m${i}`,
        parentId: i === 0 ? null : `m${i - 1}`,
        origin,
        selectedAt: at(i),
        content: `question ${i}`,
        response: `answer ${i}`,
        mediaType: null,
      }),
    )
    const file = lorisThreadExport('Many trees', messagesOf, {
      at: at(59),
      thread: { createdAt: at(0), lastMessageAt: at(origins.length) },
    })
    const report = importReportSchema.parse(
      await (await importFile(cookie, strToU8(JSON.stringify(file)), 'many.json')).json(),
    )
    expect(report).toMatchObject({ threadsImported: 1, messagesImported: origins.length })

    expect((await account())?.sentMessages).toBe(before?.sentMessages)
    const planted = await t.request('/api/user/plant-tree', { method: 'POST', cookie })
    expect(planted.status).toBe(200)
    expect((await planted.json()).treesPlanted).toBe(before?.treesPlanted)
    const stored = await db
      .select({ origin: messages.origin })
      .from(messages)
      .where(eq(messages.userId, userId))
    expect(stored.map((m) => m.origin).sort()).toEqual([...Array(9).fill('import'), 'copy'].sort())
    // Still one chain, shown whole.
    const [thread] = await db.select().from(threads).where(eq(threads.title, 'Many trees'))
    const shown = messagePageSchema.parse(
      await (await t.request(`/api/messages?threadId=${thread!.id}`, { cookie })).json(),
    ).items
    expect(shown).toHaveLength(origins.length)
  })
})

describe('versions through a Loris export (decision 012)', () => {
  it('exports every version with its parent and origin, and an import shows the same branch', async () => {
    const { cookie, user } = await t.signUp()
    const db = t.deps.database.db
    const [thread] = await db
      .insert(threads)
      .values({ userId: user.id as string, title: 'Versions', chatModel: 'gemini' })
      .returning()
    const at = (s: number) => new Date(Date.UTC(2025, 5, 1, 10, 0, s))
    const row = (content: string, parentId: string | null, s: number, extra: object = {}) => ({
      userId: user.id as string,
      threadId: thread!.id,
      content,
      response: `re ${content}`,
      chatModel: 'gemini' as const,
      status: 'complete' as const,
      parentId,
      createdAt: at(s),
      selectedAt: at(s),
      ...extra,
    })
    const [first] = await db
      .insert(messages)
      .values(row('first', null, 1))
      .returning()
    const [second] = await db
      .insert(messages)
      .values(row('second', first!.id, 2))
      .returning()
    // An edit of the second turn, then the first version chosen again: shown is first, second.
    const [edit] = await db
      .insert(messages)
      .values(row('second edited', first!.id, 3, { origin: 'edit' }))
      .returning()
    await db.insert(messages).values(row('after edit', edit!.id, 4))
    await db
      .update(messages)
      .set({ selectedAt: at(9) })
      .where(eq(messages.id, second!.id))
    // Rows written around the app: their shown branch marked as the app keeps it (decision 021).
    await reshowThread(db, thread!.id)

    const exported = exportedThreadSchema.parse(
      await (await t.request(`/api/threads/${thread!.id}/export`, { cookie })).json(),
    )
    expect(exported.version).toBe(EXPORT_VERSION)
    expect(exported.messages.map((m) => [m.content, m.parentId, m.origin, m.version, m.shown])).toEqual([
      ['first', null, 'sent', 1, true],
      ['second', first!.id, 'sent', 1, true],
      ['second edited', first!.id, 'edit', 2, false],
      ['after edit', edit!.id, 'sent', 1, false],
    ])
    const md = await (await t.request(`/api/threads/${thread!.id}/export?format=markdown`, { cookie })).text()
    expect(md).toContain('Version 1 of 2')
    expect(md).not.toContain('after edit')

    const other = await t.signUp()
    const report = importReportSchema.parse(
      await (await importFile(other.cookie, strToU8(JSON.stringify(exported)), 'versions.json')).json(),
    )
    expect(report).toMatchObject({ threadsImported: 1, messagesImported: 4 })
    const list = threadListSchema.parse(
      await (await t.request('/api/threads', { cookie: other.cookie })).json(),
    )
    const imported = list.find((th) => th.title === 'Versions')!
    const shown = messagePageSchema.parse(
      await (await t.request(`/api/messages?threadId=${imported.id}`, { cookie: other.cookie })).json(),
    ).items
    expect(shown.map((m) => [m.content, m.versionIds?.length])).toEqual([
      ['first', 1],
      ['second', 2],
    ])
    // The other version is there with what followed it.
    const sel = await t.request(`/api/messages/${shown[1]!.versionIds![1]}/select`, {
      method: 'POST',
      cookie: other.cookie,
    })
    expect(messagePageSchema.parse(await sel.json()).items.map((m) => m.content)).toEqual([
      'first',
      'second edited',
      'after edit',
    ])

    // A format 1 export (no versions) reads as one chain.
    const v1 = {
      ...exported,
      version: 1,
      thread: { ...exported.thread, id: crypto.randomUUID(), title: 'Old format' },
      messages: exported.messages.map(({ parentId: _p, origin: _o, selectedAt: _s, shown: _v, ...m }) => m),
    }
    await importFile(other.cookie, strToU8(JSON.stringify(v1)), 'old.json')
    const old = threadListSchema
      .parse(await (await t.request('/api/threads', { cookie: other.cookie })).json())
      .find((th) => th.title === 'Old format')!
    const chain = messagePageSchema.parse(
      await (await t.request(`/api/messages?threadId=${old.id}`, { cookie: other.cookie })).json(),
    ).items
    expect(chain.map((m) => m.content)).toEqual(['first', 'second', 'second edited', 'after edit'])
  })
})
