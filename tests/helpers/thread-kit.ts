// What API tests about a thread's messages start from (sharing, search): a signed-up person with
// one thread, written straight to the database, and a way to add exchanges to it.
import { messages, threads } from '#server/db/schema/index.ts'
import type { TestApp } from './test-app.ts'

/** A signed-up owner with one thread; `add` appends an exchange to its chain (decision 012). */
export async function ownerWithThread(t: TestApp, title = 'Slow lorises') {
  const { cookie, user } = await t.signUp()
  const userId = user.id as string
  const db = t.deps.database.db
  const [thread] = await db.insert(threads).values({ userId, title, chatModel: 'loris' }).returning()
  // Each added exchange follows the one before, unless told otherwise.
  let last: string | null = null
  const add = async (
    content: string,
    response: string,
    extra: Partial<typeof messages.$inferInsert> = {},
  ) => {
    const [row] = await db
      .insert(messages)
      .values({
        userId,
        threadId: thread!.id,
        content,
        response,
        chatModel: 'loris',
        status: 'complete',
        parentId: last,
        ...extra,
      })
      .returning()
    last = row!.id
    return row!
  }
  return { cookie, userId, thread: thread!, add }
}
