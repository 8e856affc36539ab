// pgvector for project knowledge (decision 068): the embedded PGlite ships the extension; a
// PostgreSQL server may not have it, and retrieval then ranks by full text alone. The embeddings'
// table is made here at start-up, never by a migration, so the committed migrations run on a
// server without the extension.
import { sql } from 'drizzle-orm'
import type { Db } from './client.ts'

/** Whether the database can have pgvector (answers one row, `ok`). */
const VECTOR_AVAILABLE = "select exists (select 1 from pg_available_extensions where name = 'vector') as ok"

export interface VectorSupport {
  vectors: boolean
  /** Why there are none (for the operator's log), when there are none. */
  reason?: string
}

/**
 * Creates the extension and the embeddings' table when the database can have them. A passage's
 * embedding is kept with the model that made it: another model's vectors are never compared, and
 * are made again for the model in use. The column has no fixed dimension, so changing the model
 * needs no migration; similarity is computed exactly over one project's or thread's passages.
 */
export async function ensureVectorStore(db: Db): Promise<VectorSupport> {
  const available = (await db.execute(sql.raw(VECTOR_AVAILABLE))) as unknown as { rows: { ok: boolean }[] }
  if (!available.rows[0]?.ok) return { vectors: false, reason: 'the pgvector extension is not installed' }
  try {
    await db.execute(sql`create extension if not exists vector`)
    await db.execute(sql`
      create table if not exists passage_embeddings (
        passage_id uuid primary key references passages(id) on delete cascade,
        model text not null,
        embedding vector not null
      )`)
    return { vectors: true }
  } catch (err) {
    return { vectors: false, reason: `pgvector could not be set up: ${(err as Error).message}` }
  }
}

/** Whether the PostgreSQL server at `url` offers pgvector (the start-up table, before workers open it). */
export async function serverHasVectors(url: string): Promise<boolean> {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: url })
  try {
    await client.connect()
    const r = await client.query(VECTOR_AVAILABLE)
    return Boolean(r.rows[0]?.ok)
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}
