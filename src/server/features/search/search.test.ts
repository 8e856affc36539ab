import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MATCH_START, searchResponseSchema } from '#contract/search.ts'
import { uploads } from '#server/db/schema/index.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { ownerWithThread } from '../../../../tests/helpers/thread-kit.ts'
import { searchTerms } from './tsquery.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

/** A person with a thread titled 'Primates'; `add` appends an exchange to it. */
const seed = () => ownerWithThread(t, 'Primates')

const search = async (cookie: string, q: string, extra = '') => {
  const res = await t.request(`/api/search?q=${encodeURIComponent(q)}${extra}`, { cookie })
  expect(res.status).toBe(200)
  return searchResponseSchema.parse(await res.json())
}

const marked = (r: { snippet: Array<{ text: string; match: boolean }> }) =>
  r.snippet.filter((p) => p.match).map((p) => p.text.toLowerCase())

describe('GET /api/search', () => {
  it("finds the person's text and replies, highlighted, with the thread's title", async () => {
    const { cookie, thread, add } = await seed()
    const a = await add('Where do slow lorises live?', 'Slow lorises live in the forests of Borneo.')
    await add('What is a tarsier?', 'A small primate with huge eyes.')
    const { results, nextCursor } = await search(cookie, 'borneo')
    expect(nextCursor).toBeNull()
    expect(results).toHaveLength(1)
    expect(results[0]).toMatchObject({
      messageId: a.id,
      threadId: thread.id,
      threadTitle: 'Primates',
      source: 'message',
    })
    expect(marked(results[0]!)).toEqual(['borneo'])
    expect(results[0]!.snippet.map((p) => p.text).join('')).toContain('forests of Borneo')
  })

  it('matches the last word as a prefix while typing, and words in any language', async () => {
    const { cookie, add } = await seed()
    const m = await add('Расскажи про бабочек', 'Бабочки — насекомые.')
    await add('Unrelated', 'Nothing here')
    expect((await search(cookie, 'бабоч')).results.map((r) => r.messageId)).toEqual([m.id])
    expect((await search(cookie, 'Расскажи')).results.map((r) => r.messageId)).toEqual([m.id])
    expect((await search(cookie, 'насекомые бабоч')).results.map((r) => r.messageId)).toEqual([m.id])
    expect((await search(cookie, 'насекомые zzz')).results).toEqual([])
  })

  it('searches the text extracted from attachments', async () => {
    const { cookie, userId, add } = await seed()
    const [upload] = await t.deps.database.db
      .insert(uploads)
      .values({
        userId,
        storageKey: 'a'.repeat(64),
        mimeType: 'application/pdf',
        kind: 'document',
        fileName: 'report.pdf',
        size: 10,
        extractedText: 'Quarterly photovoltaic output rose by twelve percent.',
      })
      .returning()
    const m = await add('Summarise this', 'It is about solar panels.', {
      uploadId: upload!.id,
      mediaType: 'document',
    })
    const { results } = await search(cookie, 'photovoltaic')
    expect(results).toHaveLength(1)
    expect(results[0]).toMatchObject({ messageId: m.id, source: 'attachment' })
    expect(marked(results[0]!)).toEqual(['photovoltaic'])
  })

  it('finds a reply by the title of a source it drew on, the title highlighted', async () => {
    const { cookie, add } = await seed()
    const m = await add('Any news about lorises?', 'Twins were born [1].', {
      sources: [
        {
          url: 'https://zoo.example/news',
          title: 'Zoo announces pygmy loris twins',
          snippet: 'Born in May.',
        },
        { url: 'https://other.example', title: 'Unrelated page' },
      ],
    })
    await add('Streaming', 'Not settled yet', {
      status: 'streaming',
      sources: [{ url: 'https://zoo.example/2', title: 'Pygmy marmoset' }],
    })
    const { results } = await search(cookie, 'pygmy')
    expect(results.map((r) => r.messageId)).toEqual([m.id])
    expect(results[0]).toMatchObject({ source: 'message' })
    expect(marked(results[0]!)).toEqual(['pygmy'])
    expect(results[0]!.snippet.map((p) => p.text).join('')).toContain('Zoo announces pygmy loris twins')
    // A source's address and snippet are not its title: not searched.
    expect((await search(cookie, 'zoo.example')).results).toEqual([])
  })

  it("never shows another user's messages", async () => {
    const other = await seed()
    await other.add('My secret zanzibar plan', 'Keep it quiet.')
    const me = await seed()
    const mine = await me.add('Zanzibar holidays', 'Sunny.')
    expect((await search(me.cookie, 'zanzibar')).results.map((r) => r.messageId)).toEqual([mine.id])
    expect((await search(other.cookie, 'zanzibar')).results.map((r) => r.messageId)).not.toContain(mine.id)
  })

  it('ranks by relevance, then recency, and pages with a cursor', async () => {
    const { cookie, add } = await seed()
    const old = await add('quokka', 'a quokka is a quokka, the quokka', { createdAt: new Date('2024-01-01') })
    const ids = []
    for (let i = 0; i < 5; i++)
      ids.push(
        (await add(`quokka ${i}`, 'one mention', { createdAt: new Date(Date.UTC(2025, 0, 1 + i)) })).id,
      )
    const first = await search(cookie, 'quokka', '&limit=2')
    expect(first.results.map((r) => r.messageId)).toEqual([old.id, ids[4]])
    expect(first.nextCursor).toBeTruthy()
    const second = await search(cookie, 'quokka', `&limit=2&cursor=${first.nextCursor}`)
    expect(second.results.map((r) => r.messageId)).toEqual([ids[3], ids[2]])
    const third = await search(cookie, 'quokka', `&limit=2&cursor=${second.nextCursor}`)
    expect(third.results.map((r) => r.messageId)).toEqual([ids[1], ids[0]])
    expect(third.nextCursor).toBeNull()
  })

  it('keeps quotes, OR and negation, and cannot be broken by tsquery syntax', async () => {
    const { cookie, add } = await seed()
    const a = await add('red panda facts', 'cute')
    const b = await add('red fox facts', 'clever')
    expect((await search(cookie, '"red panda"')).results.map((r) => r.messageId)).toEqual([a.id])
    expect((await search(cookie, 'red -panda')).results.map((r) => r.messageId)).toEqual([b.id])
    const either = (await search(cookie, 'panda OR fox')).results.map((r) => r.messageId)
    expect(either.sort()).toEqual([a.id, b.id].sort())
    for (const q of ["'", ':*', '&|!', "panda') or 1=1 --", '((', '"unclosed']) {
      const res = await t.request(`/api/search?q=${encodeURIComponent(q)}`, { cookie })
      expect(res.status).toBe(200)
    }
  })

  it('strips forged highlight markers from stored text', async () => {
    const { cookie, add } = await seed()
    await add(`wombat ${MATCH_START}fake${MATCH_START}`, 'ok')
    const { results } = await search(cookie, 'wombat')
    expect(marked(results[0]!)).toEqual(['wombat'])
  })

  it('answers 400 for an empty query or a bad cursor, 401 without a session', async () => {
    const { cookie } = await seed()
    const empty = await t.request('/api/search?q=%20', { cookie })
    expect(empty.status).toBe(400)
    expect((await empty.json()).code).toBe('bad_request:input')
    const uuid = '0b7c5a8e-8f0e-4c1e-9f3a-2d6b1c0e9a11'
    const cursor = (c: Record<string, string>) => Buffer.from(JSON.stringify(c)).toString('base64url')
    for (const bad of [
      'nonsense',
      // Beyond what a `real` holds, and moments that do not exist: each a 500 before.
      cursor({ rank: '1e39', at: '2026-01-01T00:00:00.000000Z', id: uuid }),
      cursor({ rank: '1e-50', at: '2026-01-01T00:00:00.000000Z', id: uuid }),
      cursor({ rank: '0.5', at: '2024-13-45T99:99:99.000000Z', id: uuid }),
    ]) {
      const res = await t.request(`/api/search?q=x&cursor=${bad}`, { cookie })
      expect(res.status).toBe(400)
      expect((await res.json()).code).toBe('bad_request:cursor')
    }
    const ok = await t.request(
      `/api/search?q=x&cursor=${cursor({ rank: '0.0607927', at: '2026-01-01T00:00:00.000000Z', id: uuid })}`,
      { cookie },
    )
    expect(ok.status).toBe(200)
    // PostgreSQL's text cannot hold a NUL: said to the person, not a 500.
    const nul = await t.request('/api/search?q=a%00b', { cookie })
    expect(nul.status).toBe(400)
    expect((await nul.json()).message).toContain('NUL')
    expect((await t.request('/api/search?q=x')).status).toBe(401)
  })
})

describe('searchTerms', () => {
  it('takes the last plain word as a prefix', () => {
    expect(searchTerms('slow lor')).toEqual({ web: 'slow', prefix: 'lor' })
    expect(searchTerms('"red pan')).toEqual({ web: '"red pan', prefix: null })
    expect(searchTerms('red -pan')).toEqual({ web: 'red -pan', prefix: null })
    expect(searchTerms("it's")).toEqual({ web: "it's", prefix: null })
    expect(searchTerms('rome OR par')).toEqual({ web: 'rome OR par', prefix: null })
  })
})
