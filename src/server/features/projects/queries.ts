import { and, asc, eq } from 'drizzle-orm'
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
 * The project a send belongs to: the one it names for a new thread (404 when not the person's),
 * else its thread's. Null for none.
 */
export async function projectOfSend(
  db: Db,
  userId: string,
  at: { threadId: string | null; projectId: string | null },
): Promise<ProjectRow | null> {
  if (at.projectId) {
    const named = await findProject(db, userId, at.projectId)
    if (!named) throw missingProject()
    return named
  }
  if (!at.threadId) return null
  const [row] = await db
    .select({ project: projects })
    .from(threads)
    .innerJoin(projects, eq(projects.id, threads.projectId))
    .where(and(eq(threads.id, at.threadId), eq(threads.userId, userId)))
  return row?.project ?? null
}

/** A project's instructions as the system prompt carries them. */
export function projectInstructionsText(p: ProjectRow): string {
  const head = `This conversation belongs to the person's project "${p.name}".`
  return p.instructions.trim() ? `${head} Its instructions:\n${p.instructions.trim()}` : head
}
