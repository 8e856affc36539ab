// A project's files as knowledge (decision 068): each file is read once in the parse pool (the
// attachments' limits), its text split into passages stored with a full-text index (and vectors,
// embeddings.ts, where the database has pgvector); a send in the project retrieves the few passages
// that match its message and the model is sent those instead of the files. The file's bytes are not
// kept. A document attached to a message is indexed the same way for its thread on the thread's
// next send, so later turns retrieve its passages too.
import { asc, eq, type SQL, sql } from 'drizzle-orm'
import type { Logger } from 'pino'
import type { ProjectFile } from '#contract/assistant.ts'
import type { Db } from '#server/db/client.ts'
import { passages, projectFiles } from '#server/db/schema/index.ts'
import { AppError } from '#server/lib/app-error.ts'
import { CANDIDATES, createEmbeddings, type EmbeddingModel, fuseRankings } from './embeddings.ts'
import { anyWordQuery, splitPassages } from './passages.ts'

/** Passages a send retrieves at most. */
export const RETRIEVED_PASSAGES = 3
/** Characters of a file's text kept as knowledge (a message's attachment keeps far fewer). */
export const KNOWLEDGE_TEXT_BUDGET = 2_000_000
/** Files a project holds at most. */
export const MAX_PROJECT_FILES = 50

/** Reads a file's text in the parse pool (app.ts composes it from the attachments feature). */
export type ReadFileText = (
  bytes: Uint8Array,
  fileName: string,
) => Promise<{ text: string; mimeType: string; truncated: boolean }>

export interface Retrieved {
  passages: { fileName: string; text: string }[]
  /** Characters of the files searched: what sending them whole would have cost. */
  filesChars: number
}

/** Where a send's passages come from: its project's files and its thread's attached documents. */
export interface KnowledgeScope {
  projectId: string | null
  threadId: string | null
}

function fileJson(f: typeof projectFiles.$inferSelect): ProjectFile {
  return {
    id: f.id,
    name: f.name,
    mimeType: f.mimeType,
    chars: f.chars,
    passages: f.passages,
    createdAt: f.createdAt.toISOString(),
  }
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
type Owner =
  | { projectId: string; threadId?: undefined; uploadId?: undefined }
  | { threadId: string; uploadId: string; projectId?: undefined }

/** Stores a file's text as passages; null when the thread's document was indexed already. */
async function indexText(
  tx: Tx,
  userId: string,
  owner: Owner,
  file: { name: string; mimeType: string; text: string },
): Promise<typeof projectFiles.$inferSelect | null> {
  const texts = splitPassages(file.text)
  const [row] = await tx
    .insert(projectFiles)
    .values({
      ...owner,
      userId,
      name: file.name,
      mimeType: file.mimeType,
      chars: file.text.length,
      passages: texts.length,
    })
    .onConflictDoNothing()
    .returning()
  if (!row) return null
  const scope = { projectId: owner.projectId ?? null, threadId: owner.threadId ?? null }
  // In slices: one statement's parameters stay well under PostgreSQL's limit.
  for (let i = 0; i < texts.length; i += 500)
    await tx
      .insert(passages)
      .values(texts.slice(i, i + 500).map((text, j) => ({ fileId: row.id, ...scope, ordinal: i + j, text })))
  return row
}

/** The passages of a scope, as a condition on `passages p`. */
function scopeOf(s: KnowledgeScope): SQL | null {
  if (s.projectId && s.threadId)
    return sql`(p.project_id = ${s.projectId}::uuid or p.thread_id = ${s.threadId}::uuid)`
  if (s.projectId) return sql`p.project_id = ${s.projectId}::uuid`
  if (s.threadId) return sql`p.thread_id = ${s.threadId}::uuid`
  return null
}

export interface KnowledgeOptions {
  /** The embedding model, where the database can keep vectors; else full text alone. */
  embedder?: EmbeddingModel | null
  log: Logger
}

export function createKnowledge(db: Db, readText: ReadFileText, opts: KnowledgeOptions) {
  const embeddings = opts.embedder ? createEmbeddings(db, opts.embedder, opts.log) : null
  // Passages a crash or a restart left without vectors are filled from the start.
  embeddings?.fill()

  return {
    async list(projectId: string): Promise<ProjectFile[]> {
      const rows = await db
        .select()
        .from(projectFiles)
        .where(eq(projectFiles.projectId, projectId))
        .orderBy(asc(projectFiles.createdAt))
      return rows.map(fileJson)
    },

    /** Reads, splits and indexes a file of the project (owned: the caller checked). */
    async add(userId: string, projectId: string, file: File): Promise<ProjectFile> {
      const [count] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(projectFiles)
        .where(eq(projectFiles.projectId, projectId))
      if ((count?.n ?? 0) >= MAX_PROJECT_FILES)
        throw new AppError('conflict:project_files', `A project holds at most ${MAX_PROJECT_FILES} files`)
      const name = file.name.slice(0, 255) || 'document'
      const read = await readText(new Uint8Array(await file.arrayBuffer()), name)
      const stored = await db.transaction((tx) =>
        indexText(tx, userId, { projectId }, { name, mimeType: read.mimeType, text: read.text }),
      )
      embeddings?.fill()
      return fileJson(stored as typeof projectFiles.$inferSelect)
    },

    /**
     * Indexes the documents attached to the thread's messages that are not indexed yet (the text
     * read when they were sent), so this send and later ones retrieve from them.
     */
    async indexThreadDocuments(userId: string, threadId: string): Promise<void> {
      const found = (await db.execute(sql`
        select u.id, u.file_name, u.mime_type, u.extracted_text from messages m
        join uploads u on u.id = m.upload_id
        where m.thread_id = ${threadId}::uuid and m.user_id = ${userId}::uuid
          and m.media_type = 'document' and u.extracted_text is not null
          and not exists (select 1 from project_files f where f.thread_id = ${threadId}::uuid and f.upload_id = u.id)
        group by u.id`)) as unknown as {
        rows: { id: string; file_name: string; mime_type: string; extracted_text: string }[]
      }
      if (!found.rows.length) return
      for (const u of found.rows)
        await db.transaction((tx) =>
          indexText(
            tx,
            userId,
            { threadId, uploadId: u.id },
            { name: u.file_name, mimeType: u.mime_type, text: u.extracted_text },
          ),
        )
      embeddings?.fill()
    },

    /**
     * The passages of the scope that best match `message`, best first: PostgreSQL's full-text
     * ranking, fused with vector similarity where there are vectors (reciprocal rank fusion).
     */
    async retrieve(scope: KnowledgeScope, message: string, limit = RETRIEVED_PASSAGES): Promise<Retrieved> {
      const where = scopeOf(scope)
      if (!where) return { passages: [], filesChars: 0 }
      const files = (await db.execute(sql`
        select coalesce(sum(f.chars), 0)::int as chars from project_files f
        where ${scope.projectId ? sql`f.project_id = ${scope.projectId}::uuid` : sql`false`}
          or ${scope.threadId ? sql`f.thread_id = ${scope.threadId}::uuid` : sql`false`}`)) as unknown as {
        rows: { chars: number }[]
      }
      const filesChars = Number(files.rows[0]?.chars ?? 0)
      if (!filesChars) return { passages: [], filesChars }
      const query = anyWordQuery(message)
      const byText = query
        ? (
            (await db.execute(sql`
              select p.id from passages p, to_tsquery('simple', ${query}) q
              where ${where} and p.search_vector @@ q
              order by ts_rank_cd(p.search_vector, q) desc, p.ordinal limit ${CANDIDATES}`)) as unknown as {
              rows: { id: string }[]
            }
          ).rows.map((r) => r.id)
        : []
      const byMeaning = embeddings && message.trim() ? await embeddings.nearest(where, message) : []
      const ids = fuseRankings([byText, byMeaning], limit)
      if (!ids.length) return { passages: [], filesChars }
      const rows = (await db.execute(sql`
        select p.id, f.name as file_name, p.text from passages p join project_files f on f.id = p.file_id
        where p.id in (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`)) as unknown as { rows: { id: string; file_name: string; text: string }[] }
      const byId = new Map(rows.rows.map((r) => [r.id, r]))
      return {
        passages: ids.flatMap((id) => {
          const r = byId.get(id)
          return r ? [{ fileName: r.file_name, text: r.text }] : []
        }),
        filesChars,
      }
    },
  }
}

export type Knowledge = ReturnType<typeof createKnowledge>
