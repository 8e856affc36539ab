// The shown branch kept on the rows (docs/decisions/021): each exchange knows its depth (turns from
// the first) and whether it is on the branch its thread shows. Sends keep the flags as they write
// (send-statement.ts); what changes a branch wholesale (a version selected, an import, a seeded
// tree) computes them again here, in two statements.
import { sql } from 'drizzle-orm'
import type { Db, Tx } from '#server/db/client.ts'

/** A row whose parent is not in its thread starts it, as chat/branch.ts childrenByParent reads it. */
const isRoot = sql.raw(`(m.parent_id is null or not exists (
  select 1 from messages p where p.id = m.parent_id and p.thread_id = m.thread_id))`)

/** The version shown at a turn: selected last, then created last (chat/branch.ts `selected`). */
const shownFirst = sql.raw('order by m.selected_at desc, m.created_at desc, m.id desc limit 1')

/**
 * Depth and shown flag of every exchange of one thread from its tree: from the first turn, the
 * version selected last at each turn, as chat/branch.ts activeBranch computes it. The flags are
 * cleared first: the unique index allows one shown row per depth at every moment.
 */
export async function reshowThread(db: Db | Tx, threadId: string): Promise<void> {
  await db.execute(sql`update messages set shown = false where thread_id = ${threadId} and shown`)
  await db.execute(sql`
    with recursive tree(id, depth) as (
      select m.id, 0 from messages m where m.thread_id = ${threadId} and ${isRoot}
      union all
      select c.id, tree.depth + 1 from tree
      join messages c on c.parent_id = tree.id and c.thread_id = ${threadId}
    ), branch(id) as (
      (select m.id from messages m where m.thread_id = ${threadId} and ${isRoot} ${shownFirst})
      union all
      select c.id from branch b cross join lateral (
        select m.id from messages m where m.thread_id = ${threadId} and m.parent_id = b.id ${shownFirst}
      ) c
    )
    update messages m set depth = tree.depth, shown = exists (select 1 from branch where branch.id = m.id)
    from tree
    where m.id = tree.id
      and (m.depth <> tree.depth or exists (select 1 from branch where branch.id = m.id))
  `)
}

/** The last exchange the thread shows (the shown row of greatest depth), by messages_shown_idx. */
export async function shownLeaf(db: Db | Tx, threadId: string): Promise<string | null> {
  const result = (await db.execute(
    sql`select id from messages where thread_id = ${threadId} and shown order by depth desc limit 1`,
  )) as unknown as { rows: { id: string }[] }
  return result.rows[0]?.id ?? null
}
