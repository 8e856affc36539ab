// The shown branch (docs/decisions/021 and 048): each exchange knows its depth (turns from the
// first), and shown_turns names the exchange each thread shows at each turn. Sends keep it as they
// write (send-statement.ts); a seeded tree computes it again here (reshowThread), and a version
// switch moves it from the turn where the branches part (switchVersion).
import { desc, eq, sql } from 'drizzle-orm'
import type { Db, Tx } from '#server/db/client.ts'
import { shownTurns } from '#server/db/schema/index.ts'

/** A row whose parent is not in its thread starts it, as lib/branch.ts childrenByParent reads it. */
const isRoot = sql.raw(`(m.parent_id is null or not exists (
  select 1 from messages p where p.id = m.parent_id and p.thread_id = m.thread_id))`)

/** The version shown at a turn: selected last, then created last (lib/branch.ts `selected`). */
const shownFirst = sql.raw('order by m.selected_at desc, m.created_at desc, m.id desc limit 1')

/**
 * Each row of the thread with its depth and whether it is on the shown branch: from the first
 * turn, the version selected last at each turn, as lib/branch.ts activeBranch computes it. One
 * walk down the tree and one down the branch, joined, so the whole is linear in the thread's rows.
 * Each step is a lateral lookup by index, kept apart by `offset 0`: joined plainly (or a lateral
 * the planner may pull up into a join), the planner, which guesses a few rows for a recursive
 * term, hashed the whole thread at every step of a long chain.
 */
const target = (threadId: string) => sql`
  with recursive tree(id, depth) as (
    select m.id, 0 from messages m where m.thread_id = ${threadId} and ${isRoot}
    union all
    select c.id, tree.depth + 1 from tree cross join lateral (
      select m.id from messages m where m.thread_id = ${threadId} and m.parent_id = tree.id offset 0
    ) c
  ), branch(id) as (
    (select m.id from messages m where m.thread_id = ${threadId} and ${isRoot} ${shownFirst})
    union all
    select c.id from branch b cross join lateral (
      select m.id from messages m where m.thread_id = ${threadId} and m.parent_id = b.id ${shownFirst}
    ) c
  ), target(id, depth, shown) as (
    select tree.id, tree.depth, branch.id is not null from tree left join branch on branch.id = tree.id
  )`

/**
 * Depth of every exchange of one thread and the turns it shows, computed from its tree. Only what
 * differs is written: the depths that are wrong, the shown turns that leave the branch, then
 * those that join it.
 */
export async function reshowThread(db: Db | Tx, threadId: string): Promise<void> {
  await db.execute(sql`${target(threadId)}
    update messages m set depth = target.depth from target
    where m.id = target.id and m.thread_id = ${threadId} and m.depth <> target.depth`)
  await db.execute(sql`${target(threadId)}
    delete from shown_turns s where s.thread_id = ${threadId} and not exists (
      select 1 from target where target.id = s.message_id and target.shown and target.depth = s.depth)`)
  await db.execute(sql`${target(threadId)}
    insert into shown_turns (thread_id, depth, message_id)
    select ${threadId}, target.depth, target.id from target where target.shown
    on conflict do nothing`)
}

/** The last exchange the thread shows and its depth (its deepest shown turn, by shown_turns_pkey). */
export async function shownEnd(db: Db | Tx, threadId: string): Promise<{ id: string; depth: number } | null> {
  const [end] = await db
    .select({ id: shownTurns.messageId, depth: shownTurns.depth })
    .from(shownTurns)
    .where(eq(shownTurns.threadId, threadId))
    .orderBy(desc(shownTurns.depth))
    .limit(1)
  return end ?? null
}

/** The last exchange the thread shows. */
export const shownLeaf = async (db: Db | Tx, threadId: string) => (await shownEnd(db, threadId))?.id ?? null

/** Shows `rows` (new exchanges, each at its depth) in their thread: a copy's or an import's. */
export async function showRows(tx: Db | Tx, threadId: string, rows: { id: string; depth: number }[]) {
  if (rows.length === 0) return
  await tx.insert(shownTurns).values(rows.map((r) => ({ threadId, depth: r.depth, messageId: r.id })))
}

/**
 * Rows one step of a version switch reads or writes: switching between two long branches moves a
 * shown turn for every turn of both, and on the embedded database a transaction holds it from
 * everyone. Between steps the others' statements run. Each statement names the thread and reaches
 * a turn's versions by messages_thread_parent_idx, so no plan the statistics may choose reads more
 * than the thread (an `or` across the first turn's versions and the others' read the whole thread
 * for every row once the tables were analyzed).
 */
export const SWITCH_BATCH = 100

/** Where a switch parts from the branch shown: its first row not shown, at `depth`. */
export interface BranchSwitch {
  threadId: string
  top: string
  depth: number
}

/** Runs each step in `tx` when given (all one transaction), else each in its own. */
type Steps = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>
const stepsOf =
  (db: Db, tx?: Tx): Steps =>
  (fn) =>
    tx ? fn(tx) : db.transaction(fn)
/** Locks the thread for one step: its sends and switches take turns. */
const lockThread = async (tx: Tx, threadId: string) => {
  await tx.execute(sql`select id from threads where id = ${threadId} for update`)
}

/** Whether exchange `m` is on its thread's shown branch (by shown_turns_message_idx). */
const isShown = sql.raw('exists (select 1 from shown_turns s where s.message_id = m.id)')

/**
 * Selects version `id` of one of the user's threads and shows the branch through it (decision
 * 048): it and its ancestors not shown are selected now where their turn has other versions (a
 * turn of one version shows it whatever its time), then the shown turns move (moveShownBranch).
 * Undefined when the exchange is not the user's; else its thread.
 */
export async function switchVersion(
  db: Db,
  userId: string,
  id: string,
  now: Date,
  opts: { tx?: Tx; batch?: number } = {},
): Promise<{ threadId: string | null } | undefined> {
  const steps = stepsOf(db, opts.tx)
  const found = await steps(async (tx) => {
    const result = (await tx.execute(sql`
      select m.thread_id, ${isShown} as shown from messages m where m.id = ${id} and m.user_id = ${userId}
    `)) as unknown as { rows: { thread_id: string | null; shown: boolean }[] }
    const row = result.rows[0]
    // On the branch shown already (or outside any thread): only its time changes.
    if (row && (!row.thread_id || row.shown))
      await tx.execute(sql`update messages set selected_at = ${now} where id = ${id}`)
    return row
  })
  if (!found) return undefined
  const threadId = found.thread_id
  if (!threadId || found.shown) return { threadId }
  const parts = await selectUp(steps, threadId, id, now, opts.batch ?? SWITCH_BATCH)
  if (parts) await moveShownBranch(steps, parts, opts.batch ?? SWITCH_BATCH)
  return { threadId }
}

/**
 * Up the parent links from `id` while not shown (a shown row's ancestors are all shown), `batch`
 * rows a step, each a primary-key lookup; the rows met that have other versions at their turn are
 * selected now. Answers the highest row not shown: where the new branch parts from the old.
 */
async function selectUp(
  steps: Steps,
  threadId: string,
  id: string,
  now: Date,
  batch: number,
): Promise<BranchSwitch | null> {
  let from: string | null = id
  let top: BranchSwitch | null = null
  while (from) {
    const start: string = from
    const step = await steps(async (tx) => {
      await lockThread(tx, threadId)
      const result = (await tx.execute(sql`
        with recursive up(id, parent_id, depth, shown, n) as (
          select m.id, m.parent_id, m.depth, ${isShown}, 1 from messages m
          where m.id = ${start} and m.thread_id = ${threadId}
          union all
          select p.id, p.parent_id, p.depth, p.shown, up.n + 1 from up cross join lateral (
            select m.id, m.parent_id, m.depth, ${isShown} as shown from messages m
            where m.id = up.parent_id and m.thread_id = ${threadId} offset 0
          ) p
          where not up.shown and up.n < ${batch}
        ), chain as (select * from up where not shown), bumped as (
          update messages m set selected_at = ${now} from chain
          where m.id = chain.id and m.thread_id = ${threadId} and (m.id = ${id}
            or (m.parent_id is not null and exists (select 1 from messages s
              where s.thread_id = ${threadId} and s.parent_id = m.parent_id and s.id <> m.id))
            or (m.parent_id is null and exists (select 1 from messages s
              where s.thread_id = ${threadId} and s.parent_id is null and s.id <> m.id)))
          returning m.id
        )
        select chain.id, chain.parent_id, chain.depth, (select bool_or(shown) from up) as reached
        from chain order by chain.depth limit 1
      `)) as unknown as {
        rows: { id: string; parent_id: string | null; depth: number; reached: boolean | null }[]
      }
      return result.rows[0]
    })
    if (!step) break
    top = { threadId, top: step.id, depth: step.depth }
    from = step.reached ? null : step.parent_id
  }
  return top
}

/**
 * Moves the shown turns to the branch selected, from the turn where it parts from the branch
 * shown: the rows shown from that depth down are un-shown, deepest first, then the new branch is
 * walked down from its top (the version selected last at each turn), `batch` rows a step, each
 * step locking the thread. Every state between steps is a path from the first turn, shorter than
 * the branch: a send or an edit in that moment writes its end, and the switch stops there (that
 * exchange is the newest choice at its turn, so the rule of lib/branch.ts agrees).
 */
async function moveShownBranch(steps: Steps, parts: BranchSwitch, batch: number): Promise<void> {
  const { threadId, depth } = parts
  // Up from the old branch's end to the turn where the branches part. Each step starts at the
  // depth the last one reached (the index scan does not walk again the entries it left behind,
  // which stay in shown_turns_pkey until a vacuum); that depth itself is read again, where a
  // send in the meantime may have followed the end then shown.
  let reached: number | null = null
  for (;;) {
    const upTo = reached
    const cleared = await steps(async (tx) => {
      await lockThread(tx, threadId)
      const result = (await tx.execute(sql`
        delete from shown_turns where thread_id = ${threadId} and depth in (
          select depth from shown_turns where thread_id = ${threadId} and depth >= ${depth}
            ${upTo === null ? sql`` : sql`and depth <= ${upTo}`}
          order by depth desc limit ${batch})
        returning depth
      `)) as unknown as { rows: { depth: number }[] }
      return result.rows.map((r) => r.depth)
    })
    if (cleared.length < batch) break
    reached = Math.min(...cleared)
  }
  // Down the new branch: `after` is the row the last step showed (null before the first).
  let after: string | null = null
  for (;;) {
    const last: string | null = await steps(async (tx) => {
      await lockThread(tx, threadId)
      const end = await shownEnd(tx, threadId)
      // Something else wrote the branch's end meanwhile (a send, an edit): it is the newest choice.
      if (after ? end?.id !== after : (end?.depth ?? -1) !== depth - 1) return null
      const first = after
        ? sql`select c.id, 1 from messages p cross join lateral (
            select m.id from messages m where m.thread_id = ${threadId} and m.parent_id = p.id ${shownFirst}
          ) c where p.id = ${after}`
        : sql`select ${parts.top}::uuid, 1`
      const result = (await tx.execute(sql`
        with recursive walk(id, n) as (
          ${first}
          union all
          select c.id, w.n + 1 from walk w cross join lateral (
            select m.id from messages m where m.thread_id = ${threadId} and m.parent_id = w.id ${shownFirst}
          ) c where w.n < ${batch}
        ), shown as (
          insert into shown_turns (thread_id, depth, message_id)
          select ${threadId}, m.depth, m.id from walk join messages m on m.id = walk.id
          returning message_id, depth
        )
        select message_id as id, (select count(*)::int from shown) as n from shown
        order by depth desc limit 1
      `)) as unknown as { rows: { id: string; n: number }[] }
      const row = result.rows[0]
      return row && row.n >= batch ? row.id : null
    })
    if (!last) break
    after = last
  }
}
