import { and, asc, eq, sql } from 'drizzle-orm'
import type { Instructions } from '#contract/assistant.ts'
import type { Db } from '#server/db/client.ts'
import { projects, threads } from '#server/db/schema/index.ts'
import { AppError } from '#server/lib/app-error.ts'

export type ProjectRow = typeof projects.$inferSelect

export const missingProject = () => new AppError('not_found:project', 'This project does not exist')

export function projectJson(p: ProjectRow) {
  return { id: p.id, name: p.name, instructions: p.instructions, createdAt: p.createdAt.toISOString() }
}

export function listProjects(db: Db, userId: string) {
  return db.select().from(projects).where(eq(projects.userId, userId)).orderBy(asc(projects.createdAt))
}

export async function findProject(db: Db, userId: string, id: string): Promise<ProjectRow | undefined> {
  const [row] = await db
    .select()
    .from(projects)
    .where(and(eq(projects.id, id), eq(projects.userId, userId)))
  return row
}

export async function createProject(db: Db, userId: string, v: { name: string; instructions: string }) {
  const [row] = await db
    .insert(projects)
    .values({ userId, ...v })
    .returning()
  return row as ProjectRow
}

export async function updateProject(
  db: Db,
  userId: string,
  id: string,
  v: { name: string; instructions: string },
) {
  const [row] = await db
    .update(projects)
    .set(v)
    .where(and(eq(projects.id, id), eq(projects.userId, userId)))
    .returning()
  return row
}

/**
 * Deletes a project; its threads move out of it (`keep`) or are deleted with it, in one
 * transaction. False when it was not the person's.
 */
export async function deleteProject(db: Db, userId: string, id: string, threadsTo: 'keep' | 'delete') {
  return db.transaction(async (tx) => {
    const [owned] = await tx
      .select({ id: projects.id })
      .from(projects)
      .where(and(eq(projects.id, id), eq(projects.userId, userId)))
      .for('update')
    if (!owned) return false
    if (threadsTo === 'delete')
      await tx.delete(threads).where(and(eq(threads.projectId, id), eq(threads.userId, userId)))
    else await tx.update(threads).set({ projectId: null }).where(eq(threads.projectId, id))
    await tx.delete(projects).where(eq(projects.id, id))
    return true
  })
}

/** Moves a thread into a project (or out with null). The Default thread stays where it is. */
export async function moveThread(db: Db, userId: string, threadId: string, projectId: string | null) {
  if (projectId && !(await findProject(db, userId, projectId))) throw missingProject()
  const [thread] = await db
    .select({ isDefault: threads.isDefault })
    .from(threads)
    .where(and(eq(threads.id, threadId), eq(threads.userId, userId)))
  if (!thread) throw new AppError('not_found:thread', 'This thread does not exist')
  if (thread.isDefault)
    throw new AppError(
      'forbidden:default_thread',
      'The Default thread stays pinned and cannot join a project',
    )
  await db
    .update(threads)
    .set({ projectId })
    .where(and(eq(threads.id, threadId), eq(threads.userId, userId)))
}

/**
 * What a send's prompt carries besides its thread, in one statement: the person's instructions,
 * the send's project (the one it names for a new thread, 404 when not the person's, else its
 * thread's) and whether the thread has documents attached to its messages (then their passages
 * are retrieved too).
 */
export async function sendSetup(
  db: Db,
  userId: string,
  at: { threadId: string | null; projectId: string | null },
): Promise<{
  instructions: Instructions | null
  project: Pick<ProjectRow, 'id' | 'name' | 'instructions'> | null
  threadDocuments: boolean
}> {
  const result = (await db.execute(sql`
    select ui.about_me, ui.how_to_respond, ui.enabled,
      (select json_build_object('id', p.id, 'name', p.name, 'instructions', p.instructions)
        from projects p where p.user_id = ${userId}::uuid and p.id = coalesce(${at.projectId}::uuid,
          (select t.project_id from threads t where t.id = ${at.threadId}::uuid and t.user_id = ${userId}::uuid))
      ) as project,
      exists (select 1 from messages m where m.thread_id = ${at.threadId}::uuid and m.user_id = ${userId}::uuid
        and m.media_type = 'document' and m.upload_id is not null) as thread_documents
    from (select 1) one left join user_instructions ui on ui.user_id = ${userId}::uuid`)) as unknown as {
    rows: {
      about_me: string | null
      how_to_respond: string | null
      enabled: boolean | null
      project: unknown
      thread_documents: boolean | null
    }[]
  }
  const row = result.rows[0]
  const project = (typeof row?.project === 'string' ? JSON.parse(row.project) : row?.project) as
    | Pick<ProjectRow, 'id' | 'name' | 'instructions'>
    | null
    | undefined
  if (at.projectId && !project) throw missingProject()
  return {
    instructions:
      row && row.enabled !== null
        ? { aboutMe: row.about_me ?? '', howToRespond: row.how_to_respond ?? '', enabled: row.enabled }
        : null,
    project: project ?? null,
    threadDocuments: Boolean(row?.thread_documents),
  }
}

/** A project's instructions as the system prompt carries them. */
export function projectInstructionsText(p: Pick<ProjectRow, 'name' | 'instructions'>): string {
  const head = `This conversation belongs to the person's project "${p.name}".`
  return p.instructions.trim() ? `${head} Its instructions:\n${p.instructions.trim()}` : head
}
