// Retrieval with and without vectors, through the API against the AI stand-in: passages get their
// vectors in the background from the embedding model (the tests' stories260K file stands in for a
// real one: the plumbing, not the quality), retrieval fuses both rankings, a database without
// pgvector ranks by full text alone, and a document attached to one message is retrieved on the
// thread's later turns instead of being sent again. On PostgreSQL (npm run test:pg) the server's
// own pgvector decides whether vectors are there.
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Message } from '#contract/messages.ts'
import { embedderFor } from '#server/features/eco-engine/embedder.ts'
import { setUpAiTestApp } from '../../../../tests/helpers/ai-test-app.ts'
import { readEvents } from '../../../../tests/helpers/chat.ts'
import { addProjectFile, documentWithFact } from '../../../../tests/helpers/knowledge.ts'
import { createKnowledge } from './knowledge.ts'

const MODEL = 'tests/fixtures/models/stories260K.gguf'
/** Waits (polling the database, at most 60 s) until `check` holds. */
async function until(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 60_000
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

for (const wanted of [true, false]) {
  describe(wanted ? 'retrieval with vectors where the database has pgvector' : 'retrieval without vectors', {
    timeout: 120_000,
  }, () => {
    const env = setUpAiTestApp(() => ({ EMBED_ENGINE: 'on', EMBED_MODEL_FILE: MODEL }), { vectors: wanted })
    const db = () => env.t.deps.database.db
    const rows = async <T>(q: ReturnType<typeof sql>) =>
      ((await db().execute(q)) as unknown as { rows: T[] }).rows

    /** Whether this database can keep vectors (PGlite ships pgvector; a server may not). */
    const vectorsHere = async () =>
      wanted &&
      Boolean(
        (
          await rows<{ ok: boolean }>(
            sql`select exists (select 1 from pg_available_extensions where name = 'vector') as ok`,
          )
        )[0]?.ok,
      )
    const counts = async () =>
      (
        await rows<{ passages: number; embedded: number }>(sql`
          select (select count(*)::int from passages) as passages,
            (select count(*)::int from passage_embeddings) as embedded`)
      )[0] as { passages: number; embedded: number }

    async function projectWithFile(cookie: string, text: string) {
      const project = await (
        await env.t.request('/api/projects', { method: 'POST', cookie, json: { name: 'Island' } })
      ).json()
      await addProjectFile(env.t, cookie, project.id, 'island-notes.txt', text)
      return project.id as string
    }

    async function send(cookie: string, json: Record<string, unknown>) {
      const res = await env.t.request('/api/messages', { method: 'POST', cookie, json })
      expect(res.status).toBe(200)
      const events = await readEvents(res)
      expect(events.at(-1)).toMatchObject({ done: true, status: 'complete' })
      return events
    }

    const systemOfLast = () => {
      const body = env.ai.requests.at(-1)?.body as { systemInstruction?: { parts?: { text: string }[] } }
      return (body?.systemInstruction?.parts ?? []).map((p) => p.text).join('')
    }

    it('keeps vectors exactly where the database has pgvector, and says so', async () => {
      const expected = await vectorsHere()
      expect(env.t.deps.database.vectors.vectors).toBe(expected)
      const table = await rows<{ t: string | null }>(sql`select to_regclass('passage_embeddings')::text as t`)
      expect(Boolean(table[0]?.t)).toBe(expected)
    })

    it('fills every passage’s vector in the background and finds passages by meaning as well as words', async () => {
      const { cookie } = await env.t.signUp()
      const projectId = await projectWithFile(cookie, documentWithFact(24))
      // Full text finds the passage with the message's words, vectors or not.
      await send(cookie, { content: 'How many animals were in the quokka colony?', projectId })
      expect(systemOfLast()).toContain('412 animals')
      if (!(await vectorsHere())) {
        // No words in common: full text alone finds nothing to send.
        await send(cookie, { content: 'xylophone zeppelin', projectId })
        expect(systemOfLast()).not.toContain('[1]')
        return
      }
      await until(async () => {
        const c = await counts()
        return c.passages > 0 && c.embedded === c.passages
      }, 'every passage to have its vector')
      const made = await rows<{ model: string; dims: number }>(
        sql`select distinct model, vector_dims(embedding) as dims from passage_embeddings`,
      )
      expect(made).toEqual([{ model: 'stories260K.gguf', dims: 64 }])
      // No word in common: the vector ranking alone still brings the nearest passages.
      await send(cookie, { content: 'xylophone zeppelin', projectId })
      expect(systemOfLast()).toContain('[3] (island-notes.txt)')
    })

    it('fills, at the next start, the vectors a crash left missing', async () => {
      if (!(await vectorsHere())) return
      const { cookie } = await env.t.signUp()
      await projectWithFile(cookie, documentWithFact(20))
      await until(async () => {
        const c = await counts()
        return c.embedded === c.passages
      }, 'the vectors')
      await db().execute(sql`delete from passage_embeddings where passage_id in
        (select passage_id from passage_embeddings order by passage_id limit 20)`)
      expect((await counts()).embedded).toBeLessThan((await counts()).passages)
      // What a new start of the app on the same database makes.
      const { deps } = env.t
      createKnowledge(db(), () => Promise.reject(new Error('no file is read')), {
        embedder: embedderFor(deps.env, deps.log),
        log: deps.log,
      })
      await until(async () => {
        const c = await counts()
        return c.embedded === c.passages
      }, 'the missing vectors')
    })

    it('retrieves a document attached to one message on later turns instead of sending it again', async () => {
      const { cookie } = await env.t.signUp()
      const text = documentWithFact(170)
      expect(text.length).toBeGreaterThan(30_000)
      const form = new FormData()
      form.set('content', 'Here are my notes')
      form.set('file', new File([text], 'notes.txt', { type: 'text/plain' }))
      const first = await env.t.request('/api/messages', { method: 'POST', cookie, body: form })
      expect(first.status).toBe(200)
      const threadId = (await readEvents(first))[0]?.threadId as string
      // The turn it is attached to carries it whole.
      expect(JSON.stringify(env.ai.requests.at(-1)?.body)).toContain('hall 169')

      await send(cookie, { content: 'How many animals were in the quokka colony?', threadId })
      const sent = JSON.stringify(env.ai.requests.at(-1)?.body)
      expect(systemOfLast()).toContain('412 animals')
      expect(systemOfLast()).toContain('(notes.txt)')
      expect(sent.length).toBeLessThan(text.length / 5)
      const { items: stored }: { items: Message[] } = await (
        await env.t.request(`/api/messages?threadId=${threadId}`, { cookie })
      ).json()
      expect(stored.at(-1)?.knowledge?.filesChars).toBe(text.length)
      expect(stored.at(-1)?.knowledge?.passages[0]?.text).toContain('412 animals')
      // Indexed once, whatever the number of later turns.
      await send(cookie, { content: 'And who counted them?', threadId })
      const files = await rows<{ n: number }>(
        sql`select count(*)::int as n from project_files where thread_id = ${threadId}::uuid`,
      )
      expect(files[0]?.n).toBe(1)
    })
  })
}
