// Passages' vectors (decision 068): filled in the background after a file is indexed, a few
// passages per statement, one text at a time through the embedding model (eco-engine/embedder.ts);
// a passage without a vector of the current model is simply filled on the next run, so a crash or
// a restart mid-way resumes where it stopped. Retrieval asks for the nearest passages of a scope.
import { type SQL, sql } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { Db } from '#server/db/client.ts'

/** What makes vectors: the eco engine's embedding model (its interface only). */
export interface EmbeddingModel {
  readonly modelName: string
  /** Put before a search query's text, never a passage's, as the model asks ('' for none). */
  readonly queryPrefix: string
  readonly ready: boolean
  prepare(): Promise<void>
  embed(text: string): Promise<number[]>
}

/** Passages read per statement while filling. */
const FILL_BATCH = 16
/** Passages taken from the vector ranking before fusing it with the full-text one. */
export const CANDIDATES = 20

const vectorLiteral = (v: number[]) => `[${v.map((x) => (Number.isFinite(x) ? x : 0)).join(',')}]`

export function createEmbeddings(db: Db, model: EmbeddingModel, log: Logger) {
  let running: Promise<void> | null = null
  let again = false

  async function fillOnce(): Promise<void> {
    // A walk of the passages in key order: each batch starts where the last ended, so one run reads
    // every passage once however many lack a vector.
    let after = '00000000-0000-0000-0000-000000000000'
    for (;;) {
      const batch = (await db.execute(sql`
        select p.id, p.text from passages p
        left join passage_embeddings e on e.passage_id = p.id and e.model = ${model.modelName}
        where p.id > ${after}::uuid and e.passage_id is null
        order by p.id limit ${FILL_BATCH}`)) as unknown as { rows: { id: string; text: string }[] }
      const rows = batch.rows
      if (!rows.length) return
      for (const row of rows) {
        const vector = await model.embed(row.text)
        // A passage deleted meanwhile (its file or project gone) inserts nothing.
        await db.execute(sql`
          insert into passage_embeddings (passage_id, model, embedding)
          select ${row.id}::uuid, ${model.modelName}, ${vectorLiteral(vector)}::vector
          where exists (select 1 from passages where id = ${row.id}::uuid)
          on conflict (passage_id) do update set model = excluded.model, embedding = excluded.embedding`)
      }
      after = (rows.at(-1) as { id: string }).id
    }
  }

  return {
    /**
     * Fills the vectors passages lack, in the background; a call while a run is under way makes it
     * run once more when it ends (the passages just indexed may lie behind its walk).
     */
    fill(): Promise<void> {
      if (running) {
        again = true
        return running
      }
      running = (async () => {
        do {
          again = false
          await fillOnce()
        } while (again)
      })()
        .catch((err) => {
          log.warn({ err: err instanceof Error ? err.message : String(err) }, 'embedding passages stopped')
        })
        .finally(() => {
          running = null
        })
      return running
    },

    /**
     * The ids of the passages in `scope` nearest to `text`, nearest first: `text` is embedded as a
     * query (after the model's query prefix), the passages were embedded as they are. None while
     * the model is not loaded yet (its loading is started, the send does not wait for it).
     */
    async nearest(scope: SQL, text: string, limit = CANDIDATES): Promise<string[]> {
      if (!model.ready) {
        model.prepare().catch(() => {})
        return []
      }
      const vector = vectorLiteral(await model.embed(model.queryPrefix + text))
      const result = (await db.execute(sql`
        select p.id from passage_embeddings e join passages p on p.id = e.passage_id
        where ${scope} and e.model = ${model.modelName}
        order by e.embedding <=> ${vector}::vector, p.ordinal limit ${limit}`)) as unknown as {
        rows: { id: string }[]
      }
      return result.rows.map((r) => r.id)
    },
  }
}

export type Embeddings = ReturnType<typeof createEmbeddings>

/**
 * Reciprocal rank fusion: each ranking gives a passage 1 / (k + its rank); the passages with the
 * highest sums come first, ties in the order of the first ranking. Robust to the two rankings'
 * scores being on unrelated scales, which is why their ranks, not their scores, are fused.
 */
export function fuseRankings(rankings: string[][], limit: number, k = 60): string[] {
  const score = new Map<string, number>()
  const firstSeen = new Map<string, number>()
  let seen = 0
  for (const ranking of rankings)
    ranking.forEach((id, rank) => {
      score.set(id, (score.get(id) ?? 0) + 1 / (k + rank + 1))
      if (!firstSeen.has(id)) firstSeen.set(id, seen++)
    })
  return [...score.keys()]
    .sort(
      (a, b) =>
        (score.get(b) as number) - (score.get(a) as number) ||
        (firstSeen.get(a) as number) - (firstSeen.get(b) as number),
    )
    .slice(0, limit)
}
