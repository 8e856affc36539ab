import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BGE_QUERY_INSTRUCTION } from '#server/features/eco-engine/embedder.ts'
import { addProjectFile, documentWithFact } from '../../../../tests/helpers/knowledge.ts'
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app.ts'
import { createEmbeddings, type EmbeddingModel, fuseRankings } from './embeddings.ts'

describe('reciprocal rank fusion', () => {
  it('puts first what both rankings rank well, then what one ranks first', () => {
    expect(
      fuseRankings(
        [
          ['a', 'b', 'c'],
          ['b', 'd', 'e'],
        ],
        3,
      ),
    ).toEqual(['b', 'a', 'd'])
  })

  it('breaks ties in the order of the first ranking, and keeps at most `limit`', () => {
    expect(
      fuseRankings(
        [
          ['a', 'b'],
          ['x', 'y'],
        ],
        3,
      ),
    ).toEqual(['a', 'x', 'b'])
    expect(fuseRankings([['a', 'b', 'c'], []], 2)).toEqual(['a', 'b'])
  })

  it('gives nothing for no candidates', () => {
    expect(fuseRankings([[], []], 3)).toEqual([])
  })
})

// The seam between retrieval and the embedding model: a recording model shows which text each
// path hands it. On a database without pgvector (a PostgreSQL server without it) there is none.
describe('the texts handed to the embedding model', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(() => t?.close())

  it('embeds passages as they are, and a search query after the model’s query prefix', async (ctx) => {
    if (!t.deps.database.vectors.vectors) ctx.skip()
    const { cookie } = await t.signUp()
    const project = await (
      await t.request('/api/projects', { method: 'POST', cookie, json: { name: 'Island' } })
    ).json()
    await addProjectFile(t, cookie, project.id, 'island-notes.txt', documentWithFact(8))
    const db = t.deps.database.db
    const texts = (
      (await db.execute(sql`select text from passages`)) as unknown as { rows: { text: string }[] }
    ).rows.map((r) => r.text)
    expect(texts.length).toBeGreaterThan(1)

    const handed: string[] = []
    const model: EmbeddingModel = {
      modelName: 'recording-embedder',
      queryPrefix: BGE_QUERY_INSTRUCTION,
      ready: true,
      prepare: async () => {},
      embed: async (text) => {
        handed.push(text)
        return [1, text.length % 5, 0.5]
      },
    }
    const embeddings = createEmbeddings(db, model, t.deps.log)
    await embeddings.fill()
    expect(handed.sort()).toEqual(texts.sort())

    handed.length = 0
    const scope = sql`p.project_id = ${project.id}::uuid`
    const nearest = await embeddings.nearest(scope, 'How many animals were in the quokka colony?')
    expect(handed).toEqual([`${BGE_QUERY_INSTRUCTION}How many animals were in the quokka colony?`])
    expect(nearest).toHaveLength(texts.length)

    // A model that asks for no prefix gets the query as it is.
    handed.length = 0
    await createEmbeddings(db, { ...model, queryPrefix: '' }, t.deps.log).nearest(scope, 'quokka colony')
    expect(handed).toEqual(['quokka colony'])
  })
})
