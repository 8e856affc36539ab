// Reading a person's thread: the row when it is theirs, and the condition that picks its
// messages. The Default thread also holds the thread-less messages from before threads
// (decision 021).
import { and, eq, isNull, or } from 'drizzle-orm'
import type { Db } from './client.ts'
import { messages, threads } from './schema/index.ts'

export type ThreadRow = typeof threads.$inferSelect

/** The thread when it is the user's, else undefined. */
export async function findOwnedThread(db: Db, userId: string, id: string): Promise<ThreadRow | undefined> {
  const [row] = await db
    .select()
    .from(threads)
    .where(and(eq(threads.id, id), eq(threads.userId, userId)))
  return row
}

/** The messages of `thread` (with the user's own check beside it: messages.user_id). */
export const inThread = (thread: Pick<ThreadRow, 'id' | 'isDefault'>) =>
  thread.isDefault
    ? or(eq(messages.threadId, thread.id), isNull(messages.threadId))
    : eq(messages.threadId, thread.id)
