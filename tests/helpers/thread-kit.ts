// What API tests about a thread's messages start from (sharing, search): a signed-up person with
// one thread, written straight to the database, and a way to add exchanges to it.
import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { messages, shownTurns, threads } from '#server/db/schema/index.ts'
import { showRows } from '#server/features/chat/shown-branch.ts'
import { prose } from './prose.ts'
import type { TestApp } from './test-app.ts'

/** A signed-up person, with the id of the Default thread their account starts with. */
export async function ownerWithDefault(t: TestApp) {
  const { cookie, user } = await t.signUp()
  const userId = user.id as string
  const [def] = await t.deps.database.db
    .select({ id: threads.id })
    .from(threads)
    .where(and(eq(threads.userId, userId), eq(threads.isDefault, true)))
  if (!def) throw new Error('a new account has a Default thread')
  return { cookie, userId, defaultId: def.id }
}

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

/**
 * A thread of `2 × turns` exchanges written straight to the database, the worst case of a long
 * thread with versions: its first turn has two versions, each followed by a chain of `turns - 1`
 * exchanges. Branch `a` is shown (its turns in shown_turns, as the app keeps them); branch `b`
 * is not. Each exchange carries about 780 characters of varied words, as a long imported
 * conversation does: each row written costs the search index what real text costs it.
 */
export async function twoBranchThread(t: TestApp, turns: number) {
  const owner = await ownerWithThread(t, 'A very long conversation')
  const db = t.deps.database.db
  const text = (i: number, who: string) => `${who} ${i}: ${prose(60)}`
  const start = Date.UTC(2025, 0, 1)
  const branch = (name: 'a' | 'b') => {
    const rows: (typeof messages.$inferInsert)[] = []
    let parentId: string | null = null
    for (let depth = 0; depth < turns; depth++) {
      const id = randomUUID()
      const at = new Date(start + (depth * 2 + (name === 'a' ? 0 : 1)) * 1000)
      rows.push({
        id,
        userId: owner.userId,
        threadId: owner.thread.id,
        content: text(depth, `question ${name}`),
        response: text(depth, `answer ${name}`),
        chatModel: 'loris',
        status: 'complete',
        origin: 'import',
        parentId,
        depth,
        // Branch a was chosen last at its first turn.
        selectedAt: name === 'a' && depth === 0 ? new Date(start + 10 * turns * 1000) : at,
        createdAt: at,
        completedAt: at,
      })
      parentId = id
    }
    return rows
  }
  const a = branch('a')
  const b = branch('b')
  for (const rows of [a, b])
    for (let i = 0; i < rows.length; i += 500) await db.insert(messages).values(rows.slice(i, i + 500))
  const shown = a.map((r) => ({ id: r.id as string, depth: r.depth as number }))
  for (let i = 0; i < shown.length; i += 1000) await showRows(db, owner.thread.id, shown.slice(i, i + 1000))
  const ids = (rows: typeof a) => rows.map((r) => r.id as string)
  return { ...owner, a: ids(a), b: ids(b) }
}

/**
 * Each exchange of a thread with its place in the tree and whether the thread shows it (a row in
 * shown_turns at its depth), by depth then id: what the tests compare with lib/branch.ts.
 */
export function turnsOf(db: Db, threadId: string) {
  return db
    .select({
      id: messages.id,
      parentId: messages.parentId,
      selectedAt: messages.selectedAt,
      createdAt: messages.createdAt,
      depth: messages.depth,
      shown: sql<boolean>`${shownTurns.messageId} is not null and ${shownTurns.depth} = ${messages.depth}`,
    })
    .from(messages)
    .leftJoin(shownTurns, eq(shownTurns.messageId, messages.id))
    .where(eq(messages.threadId, threadId))
    .orderBy(messages.depth, messages.id)
}
