// A Loris data export's custom instructions and projects brought back (decision 071): each
// project by its name, so an import never makes a second project of a name the person already
// has (nor a second import a second copy); its files' text through the project's own path
// (app.ts: the knowledge feature reads, splits and indexes it); the instructions only where the
// person has none of their own. The threads then join their projects (projectFor).
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { projectFiles, projects, userInstructions } from '#server/db/schema/index.ts'
import { AppError } from '#server/lib/app-error.ts'
import type { ImportedAssistant, ImportedFiles, ImportedThread } from './parse.ts'

/** Adds a file to a project as a person's upload would (the caller owns the project). */
export type AddProjectFile = (userId: string, projectId: string, file: File) => Promise<unknown>

/** Project files one import restores at most, whatever the number of projects. */
export const MAX_RESTORED_PROJECT_FILES = 1_000

export interface RestoredAssistant {
  projectsCreated: number
  filesAdded: number
  filesLeftOut: number
  /** The export's instructions were written (the person had none), kept out, or there were none. */
  instructions: 'restored' | 'kept' | 'none'
}

export function projectRestorer(db: Db, userId: string, addFile: AddProjectFile | undefined) {
  /** The exported project's id → the project it became. */
  const byKey = new Map<string, string>()
  /** The person's projects by name (the oldest of a name), read once. */
  let byName: Map<string, string> | null = null
  let projectsCreated = 0

  async function named(name: string, instructions: string): Promise<string> {
    if (!byName) {
      const rows = await db
        .select({ id: projects.id, name: projects.name })
        .from(projects)
        .where(eq(projects.userId, userId))
        .orderBy(asc(projects.createdAt), asc(projects.id))
      byName = new Map()
      for (const r of rows) if (!byName.has(r.name)) byName.set(r.name, r.id)
    }
    const known = byName.get(name)
    if (known) return known
    const [row] = await db
      .insert(projects)
      .values({ userId, name, instructions })
      .returning({ id: projects.id })
    if (!row) throw new Error('insert into projects returned nothing')
    byName.set(name, row.id)
    projectsCreated++
    return row.id
  }

  /** Written only over no instructions or empty ones: what the person wrote here stays. */
  async function restoreInstructions(i: NonNullable<ImportedAssistant['instructions']>) {
    const values = { ...i, updatedAt: new Date() }
    const written = await db
      .insert(userInstructions)
      .values({ userId, ...values })
      .onConflictDoUpdate({
        target: userInstructions.userId,
        set: values,
        setWhere: sql`${userInstructions.aboutMe} = '' and ${userInstructions.howToRespond} = ''`,
      })
      .returning({ userId: userInstructions.userId })
    return written.length > 0
  }

  return {
    /** The instructions, the projects and the files of theirs the zip carries. */
    async restore(assistant: ImportedAssistant, files: ImportedFiles): Promise<RestoredAssistant> {
      const instructions = assistant.instructions
        ? (await restoreInstructions(assistant.instructions))
          ? 'restored'
          : 'kept'
        : 'none'
      let filesAdded = 0
      let filesLeftOut = 0
      const used = new Set<string>()
      for (const p of assistant.projects) {
        const projectId = await named(p.name, p.instructions)
        byKey.set(p.id, projectId)
        if (p.files.length === 0) continue
        const have = new Set(
          (
            await db
              .select({ name: projectFiles.name })
              .from(projectFiles)
              .where(and(eq(projectFiles.projectId, projectId), eq(projectFiles.userId, userId)))
          ).map((f) => f.name),
        )
        for (const f of p.files) {
          // Already in the project (a second import of the same export): nothing to add.
          if (have.has(f.name)) continue
          const bytes = f.path && !used.has(f.path) ? await files.read(f.path) : null
          if (!bytes || !addFile || filesAdded >= MAX_RESTORED_PROJECT_FILES) {
            filesLeftOut++
            continue
          }
          used.add(f.path as string)
          try {
            await addFile(userId, projectId, new File([bytes as Uint8Array<ArrayBuffer>], f.name))
            have.add(f.name)
            filesAdded++
          } catch (err) {
            // The project refused it (too many files, not a document, past the reader's limits):
            // the file is left out; anything else (the database gone) fails the import.
            if (!(err instanceof AppError)) throw err
            filesLeftOut++
          }
        }
      }
      return { projectsCreated, filesAdded, filesLeftOut, instructions }
    },

    /**
     * The project an imported thread joins: the one its export's project became, else the
     * person's project of that name, made when there is none. Default joins no project.
     */
    async projectFor(t: Pick<ImportedThread, 'project' | 'isDefault'>): Promise<string | null> {
      if (!t.project || t.isDefault) return null
      return (t.project.key ? byKey.get(t.project.key) : undefined) ?? named(t.project.name, '')
    },

    get projectsCreated() {
      return projectsCreated
    },
  }
}
