// What a link costs: a share's size is capped when it is made, and what anyone with the link
// asks for (the conversation, the page's card, a file) is answered without parsing the snapshot.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { errorBodySchema } from '#contract/errors.ts'
import { replyModelName } from '#contract/model-names.ts'
import { createShareResponse, type SharedExchange } from '#contract/sharing.ts'
import { shares, uploads } from '#server/db/schema/index.ts'
import { createDiskStorage } from '#server/lib/storage.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { ownerWithThread } from '../../../../tests/helpers/thread-kit.ts'
import { shareHeadFor } from './routes.ts'
import { type StoredExchange, shareFileUrl, storedSnapshotSchema } from './snapshot.ts'

type QueryResult = { rows: unknown[] }

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const shareOf = (cookie: string, threadId: string) =>
  t.request(`/api/threads/${threadId}/share`, { method: 'POST', cookie, json: {} })

/** An exchange as the public read answered it when it parsed the snapshot: the expected shape. */
function asParsedBefore(token: string, e: StoredExchange): SharedExchange {
  const { id, uploadId, modelId, completedAt, ...rest } = e
  return {
    ...rest,
    mediaUrl: uploadId ? shareFileUrl(token, uploadId) : null,
    modelName: replyModelName(e.chatModel, modelId),
    completedAt: completedAt ?? null,
  }
}

describe('the size of a share', () => {
  it('refuses a thread too long to share with a message saying what to do, and stores nothing', async () => {
    // An accented letter takes two bytes: under the cap counted in characters, over it in bytes.
    const accented = await ownerWithThread(t)
    for (let i = 0; i < 3; i++) await accented.add(`Question ${i}`, 'é'.repeat(800_000))
    const res = await shareOf(accented.cookie, accented.thread.id)
    expect(res.status).toBe(422)
    const body = errorBodySchema.parse(await res.json())
    expect(body.code).toBe('unprocessable:share_too_large')
    expect(body.message).toMatch(/too long to share/)
    expect(body.message).toMatch(/Export as Markdown/)
    expect(await (await t.request('/api/shares', { cookie: accented.cookie })).json()).toEqual([])

    const plain = await ownerWithThread(t)
    for (let i = 0; i < 3; i++) await plain.add(`Question ${i}`, 'a'.repeat(1_500_000))
    expect((await shareOf(plain.cookie, plain.thread.id)).status).toBe(422)
  })

  it('shares a long thread under the cap', async () => {
    const owner = await ownerWithThread(t)
    for (let i = 0; i < 3; i++) await owner.add(`Question ${i}`, 'a'.repeat(1_000_000))
    expect((await shareOf(owner.cookie, owner.thread.id)).status).toBe(201)
  })
})

describe('reading a share', () => {
  it('answers the conversation, its card and its files without parsing the snapshot', async () => {
    const marker = 'marker-6f1c2d'
    const { cookie, userId, thread, add } = await ownerWithThread(t)
    const bytes = new Uint8Array([1, 2, 3])
    const storageKey = await createDiskStorage(`${t.deps.env.DATA_DIR}/uploads`).put(bytes)
    const [upload] = await t.deps.database.db
      .insert(uploads)
      .values({ userId, storageKey, mimeType: 'image/png', kind: 'image', fileName: 'a.png', size: 3 })
      .returning()
    await add(`A question ${marker}`, `An answer ${marker}`, { uploadId: upload!.id, mediaType: 'image' })
    const { token } = createShareResponse.parse(await (await shareOf(cookie, thread.id)).json())

    // Work is counted, not timed: a parse of the snapshot by our code (JSON or its schema), or a
    // value the driver answered as parsed JSON holding it (as a jsonb column is answered).
    const realParse = JSON.parse
    let jsonParses = 0
    const jsonSpy = vi.spyOn(JSON, 'parse').mockImplementation((text, reviver) => {
      if (typeof text === 'string' && text.includes(marker)) jsonParses++
      return realParse(text, reviver)
    })
    const zodSpy = vi.spyOn(storedSnapshotSchema, 'parse')
    const { $client: client } = t.deps.database.db as unknown as {
      $client: { query: (...a: unknown[]) => Promise<QueryResult> }
    }
    const realQuery = client.query
    let parsedValues = 0
    client.query = async (...args) => {
      const result = await realQuery.apply(client, args)
      for (const row of result.rows)
        for (const value of Object.values(row as object))
          if (value && typeof value === 'object' && JSON.stringify(value).includes(marker)) parsedValues++
      return result
    }
    let text: string
    let zodParses: number
    try {
      const res = await t.request(`/api/shares/${token}`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      text = await res.text()
      const head = await shareHeadFor(t.deps)(token)
      expect(head?.description).toBe(`A question ${marker}`)
      const file = await t.request(`/api/shares/${token}/files/${upload!.id}`)
      expect(new Uint8Array(await file.arrayBuffer())).toEqual(bytes)
    } finally {
      client.query = realQuery
      zodParses = zodSpy.mock.calls.length
      jsonSpy.mockRestore()
      zodSpy.mockRestore()
    }
    expect({ jsonParses, zodParses, parsedValues }).toEqual({ jsonParses: 0, zodParses: 0, parsedValues: 0 })
    expect(JSON.parse(text).exchanges[0]).toMatchObject({
      content: `A question ${marker}`,
      mediaUrl: `/api/shares/${token}/files/${upload!.id}`,
    })
  })

  it("gives the card the first exchange's opening words, or its reply's when it has no text", async () => {
    const cardOf = async (content: string, response: string) => {
      const { cookie, thread, add } = await ownerWithThread(t)
      await add(content, response)
      await add('Second', 'Not this one')
      const { token } = createShareResponse.parse(await (await shareOf(cookie, thread.id)).json())
      return (await shareHeadFor(t.deps)(token))?.description
    }
    expect(await cardOf('', `so   slow\t${'x'.repeat(5000)}`)).toBe(`so slow ${'x'.repeat(192)}`)
    expect(await cardOf(`${' \n'.repeat(3000)}sleepy  loris`, 'reply')).toBe('sleepy loris')
  })

  it('answers the same body as the snapshot read through its schema, old snapshots included', async () => {
    const { cookie, userId, thread, add } = await ownerWithThread(t, 'Lorises $& co')
    const [upload] = await t.deps.database.db
      .insert(uploads)
      .values({ userId, storageKey: 'k', mimeType: 'image/png', kind: 'image', fileName: 'a.png', size: 1 })
      .returning()
    await add('With a picture', 'Nice', {
      uploadId: upload!.id,
      mediaType: 'image',
      mediaName: 'a.png',
      mediaMime: 'image/png',
      modelId: 'SmolLM2-360M-Instruct-Q8_0.gguf',
      co2Impact: { saved: 0.1 + 0.2, actual: 1e-7, standard: 123456.789 },
      completedAt: new Date('2025-02-01T10:00:04Z'),
    })
    await add('Plain', 'Reply "quoted" \\ \u2028 😀', { chatModel: 'gemini', modelId: 'gemini-2.5-flash' })
    await add('Failed', '', { status: 'failed', errorMessage: 'The model did not answer' })
    await add('Unnamed', 'reply', { modelId: '' })
    await add('Odd id', 'reply', { modelId: '__proto__' })
    const { token } = createShareResponse.parse(await (await shareOf(cookie, thread.id)).json())
    // A link shared before replies named their model, file and time: its exchanges lack them.
    const [old] = await t.deps.database.db
      .insert(shares)
      .values({
        token: 'O'.repeat(43),
        userId,
        threadId: thread.id,
        title: 'Old',
        allowIndexing: true,
        snapshot: [
          {
            id: 'e1',
            content: 'Old question',
            response: 'Old answer',
            chatModel: 'chatgpt',
            status: 'complete',
            errorMessage: null,
            co2Impact: null,
            mediaType: null,
            uploadId: null,
            createdAt: '2024-01-01T00:00:00.000Z',
          },
        ],
      })
      .returning()

    for (const tok of [token, old!.token]) {
      const [row] = await t.deps.database.db.select().from(shares).where(eq(shares.token, tok))
      const expected = {
        title: row!.title,
        sharedAt: row!.createdAt.toISOString(),
        allowIndexing: row!.allowIndexing,
        exchanges: storedSnapshotSchema.parse(row!.snapshot).map((e) => asParsedBefore(tok, e)),
      }
      const res = await t.request(`/api/shares/${tok}`)
      expect(res.status).toBe(200)
      expect(await res.json()).toStrictEqual(JSON.parse(JSON.stringify(expected)))
    }
  })
})
