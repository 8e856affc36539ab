// A project's files as knowledge (decision 068): each file is read once in the parse pool (the
// attachments' limits), its text split into passages stored with a full-text index; a send in the
// project retrieves the few passages that match its message, ranked by PostgreSQL, and the model is
// sent those instead of the files. The file's bytes are not kept.
import { asc, desc, eq, sql } from 'drizzle-orm'
import type { ProjectFile } from '#contract/assistant.ts'
import type { Db } from '#server/db/client.ts'
import { passages, projectFiles } from '#server/db/schema/index.ts'
import { AppError } from '#server/lib/app-error.ts'
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
  filesChars: number
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

export function createKnowledge(db: Db, readText: ReadFileText) {
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
      const texts = splitPassages(read.text)
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(projectFiles)
          .values({
            projectId,
            userId,
            name,
            mimeType: read.mimeType,
            chars: read.text.length,
            passages: texts.length,
          })
          .returning()
        const stored = row as typeof projectFiles.$inferSelect
        // In slices: one statement's parameters stay well under PostgreSQL's limit.
        for (let i = 0; i < texts.length; i += 500)
          await tx
            .insert(passages)
            .values(
              texts
                .slice(i, i + 500)
                .map((text, j) => ({ fileId: stored.id, projectId, ordinal: i + j, text })),
            )
        return fileJson(stored)
      })
    },

    /** The passages of the project's files that best match `message`, best first. */
    async retrieve(projectId: string, message: string, limit = RETRIEVED_PASSAGES): Promise<Retrieved> {
      const [total] = await db
        .select({ chars: sql<number>`coalesce(sum(${projectFiles.chars}), 0)::int` })
        .from(projectFiles)
        .where(eq(projectFiles.projectId, projectId))
      const filesChars = Number(total?.chars ?? 0)
      const query = anyWordQuery(message)
      if (!filesChars || !query) return { passages: [], filesChars }
      const tsquery = sql`to_tsquery('simple', ${query})`
      const rank = sql<number>`ts_rank_cd(${passages.searchVector}, ${tsquery})`
      const rows = await db
        .select({ fileName: projectFiles.name, text: passages.text })
        .from(passages)
        .innerJoin(projectFiles, eq(projectFiles.id, passages.fileId))
        .where(sql`${passages.projectId} = ${projectId} and ${passages.searchVector} @@ ${tsquery}`)
        .orderBy(desc(rank), asc(passages.ordinal))
        .limit(limit)
      return { passages: rows, filesChars }
    },
  }
}

export type Knowledge = ReturnType<typeof createKnowledge>
