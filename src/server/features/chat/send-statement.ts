// A send's start in one statement (docs/decisions/021): its place on the thread's shown branch,
// the per-minute budget, the usage reservation and the replies generating (decision 009), the new
// thread, the exchange, and the history the model is sent. Each write depends on the one before,
// so a refused send stores nothing but its budget spend; each check is made on the row it updates
// (re-read under its lock), never on the statement's snapshot, so it holds across nodes.
import { randomUUID } from 'node:crypto'
import { type SQL, sql } from 'drizzle-orm'
import type { ChatModel } from '#contract/config.ts'
import type { ReplyFamily } from '#contract/models.ts'
import type { Db, Tx } from '#server/db/client.ts'
import { executeNamed, placeholder as p, shapedStatement } from '#server/db/named-statement.ts'
import { countUse } from '#server/lib/rate-limit.ts'
import {
  fitsUsage,
  MAX_GENERATING_PER_USER,
  planLimit,
  SENDS_PER_MINUTE,
  type UsageClaim,
} from './admission.ts'
import type { HistoryExchange } from './history.ts'
import { NODE_ID } from './lease.ts'

/** Exchanges of history a send reads at most (history.ts then fits them to a token budget). */
export const HISTORY_ROWS = 200
const BUDGET_WINDOW_SECONDS = 60

/** Where the new exchange goes. */
export type Placement =
  /** A new thread, titled by the send. */
  | { kind: 'new-thread'; title: string; projectId?: string | null }
  /** After the last exchange the thread shows (a plain send). */
  | { kind: 'follow'; threadId: string }
  /**
   * A new version of a turn (an edit or a regeneration): a sibling of the revised exchange, shown
   * when its parent is. Run inside a transaction that locked the thread first (sendRevision).
   */
  | { kind: 'revise'; threadId: string; parentId: string | null; depth: number }

export interface SendRow {
  userId: string
  content: string
  clientMessageId: string | null
  origin: 'sent' | 'edit' | 'regenerate'
  now: Date
  /** The mode the thread keeps (threads.chat_model). */
  mode: ChatModel
  /** Who answered (messages.chat_model): the mode, or a catalogue model's family. */
  chatModel: ReplyFamily
  provider: string
  modelId: string
  mediaUrl: string | null
  mediaType: 'image' | 'document' | null
  uploadId: string | null
  mediaName: string | null
  mediaMime: string | null
}

/** The stored exchange, as much of it as the generation and the stream's head need. */
export type StartedRow = Pick<SendRow, 'userId' | 'content' | 'mediaType'> & {
  id: string
  threadId: string
  parentId: string | null
  /** This attempt at the reply (messages.attempt_id): its generation's saves and end name it. */
  attemptId: string
}

export type SendOutcome =
  /** The thread named is not this user's. */
  | { kind: 'no-thread' }
  /** The branch moved under the send (another send or a version switch in the thread): try again. */
  | { kind: 'moved' }
  /** The send's clientMessageId names a send stored before: nothing was written. */
  | { kind: 'duplicate' }
  | { kind: 'over-budget'; retryAfter: number }
  /** Refused by the usage limit or the replies generating at once (admission.ts tells which). */
  | { kind: 'refused' }
  | { kind: 'stored'; row: StartedRow; history: HistoryExchange[] }

/** The statement's text depends on these only; everything else is a value (named-statement.ts). */
interface StartShape {
  kind: Placement['kind']
  /** A revision of a thread's first turn (no parent to find shown). */
  firstTurn: boolean
}

/**
 * The exchanges up the parent links from `first`, by primary key, at most HISTORY_ROWS whatever
 * the thread's size: only the branch the new exchange follows, never the other versions.
 */
const historyFrom = (first: SQL) => sql`history(id, parent_id, content, response, status, media_type, n) as (
      select m.id, m.parent_id, m.content, m.response, m.status, m.media_type, 1
      from messages m where m.id = ${first}
      union all
      select m.id, m.parent_id, m.content, m.response, m.status, m.media_type, h.n + 1
      from history h join messages m on m.id = h.parent_id
      where h.n < ${HISTORY_ROWS}
    )`
const historyJson = sql`(select json_agg(json_build_array(content, response, status, media_type) order by n desc)
  from history)`

type HistoryTuple = [string, string, HistoryExchange['status'], HistoryExchange['mediaType']]
/** The history as the statements answer it (JSON text on PGlite's raw rows, parsed elsewhere). */
function historyOf(raw: unknown): HistoryExchange[] {
  const tuples = (typeof raw === 'string' ? JSON.parse(raw) : (raw ?? [])) as HistoryTuple[]
  return tuples.map(([content, response, status, mediaType]) => ({ content, response, status, mediaType }))
}

/** The exchanges before a retried send on its branch, oldest first (history.ts applies the budget). */
export async function loadHistory(db: Db, parentId: string | null): Promise<HistoryExchange[]> {
  if (!parentId) return []
  const result = await executeNamed<{ history: unknown }>(
    db,
    sql`with recursive ${historyFrom(sql`${parentId}::uuid`)} select ${historyJson} as history`,
  )
  return historyOf(result.rows[0]?.history)
}

/** The statement for one shape, its values as placeholders: built once per shape. */
function buildStart(shape: StartShape): SQL {
  const u = p('u')
  const now = p('now')
  let lead: SQL
  let threadIdOf: SQL
  let shown: SQL = sql`true`
  let afterPlaced: SQL = sql``
  let replaced: SQL = sql``
  if (shape.kind === 'new-thread') {
    lead = sql`placed as (select null::uuid as thread_id, null::uuid as parent_id, 0 as depth),
      found as (select 1)`
    threadIdOf = sql`(select id from created)`
  } else if (shape.kind === 'follow') {
    // Locked: sends and version switches in one thread take turns. The leaf is read from the
    // statement's snapshot, so its shown turn is locked and read again: a branch switched under
    // this send answers no row (`moved`), a send that got there first makes this one's shown turn
    // collide on shown_turns_pkey (both retried by the caller).
    lead = sql`found as (select id from threads where id = ${p('threadId')} and user_id = ${u} for update),
      leaf as (select message_id as id from shown_turns where thread_id = ${p('threadId')}
        order by depth desc limit 1),
      parent as (select message_id as id, depth from shown_turns
        where message_id = (select id from leaf) for share),
      placed as (
        select ${p('threadId')}::uuid as thread_id, (select id from parent) as parent_id,
          coalesce((select depth + 1 from parent), 0) as depth
        where exists (select 1 from found)
          and (exists (select 1 from parent) or not exists (select 1 from leaf))
      )`
    threadIdOf = sql`placed.thread_id`
  } else {
    const parentShown = shape.firstTurn
      ? sql`true`
      : sql`exists (select 1 from shown_turns where message_id = ${p('parentId')})`
    lead = sql`found as (select id from threads where id = ${p('threadId')} and user_id = ${u}),
      placed as (
        select ${p('threadId')}::uuid as thread_id, ${p('parentId')}::uuid as parent_id,
          ${p('depth')}::int as depth, ${parentShown} as visible
        where exists (select 1 from found)
      )`
    // The new version replaces its turn and what followed it on the shown branch, only once the
    // send is admitted: every step of the statement runs, and a refused edit (429) must leave the
    // thread as it was, not hide its end and let the next send land on the hidden branch.
    replaced = sql`, unshown as (
        delete from shown_turns
        where thread_id = ${p('threadId')} and depth >= ${p('depth')}
          and (select visible from placed) and exists (select 1 from admitted)
        returning depth
      )`
    threadIdOf = sql`placed.thread_id`
    shown = sql`(select visible from placed)`
    // Read before the insert: the turns it replaces leave shown_turns_pkey first.
    afterPlaced = sql`and (select count(*) from unshown) >= 0`
  }
  const created =
    shape.kind === 'new-thread'
      ? sql`, created as (
          insert into threads (user_id, title, chat_model, last_message_at, project_id)
          select ${u}::uuid, ${p('title')}::text, ${p('mode')}::text, ${now}::timestamptz,
            (select id from projects where id = ${p('projectId')}::uuid and user_id = ${u}::uuid) from admitted
          returning id
        )`
      : sql``
  const touched =
    shape.kind === 'new-thread'
      ? sql``
      : // The thread list's order follows the last send (set here rather than when the reply
        // ends: the reply's end then writes nothing but its own row and the user's).
        sql`, touched as (
          update threads set last_message_at = greatest(${now}::timestamptz, now()), chat_model = ${p('mode')}::text
          where id = (select thread_id from inserted)
          returning id
        )`
  return sql`
    with recursive ${lead},
    -- The plan's limits: an operator's (plan_limits), else the product's.
    lim as (select ${planLimit(sql`${p('plan')}`, 'chars_per_30_days', sql`${p('limit')}::int`)} as chars,
      ${planLimit(sql`${p('plan')}`, 'sends_per_minute', sql`${p('sendsPerMinute')}::int`)} as sends,
      ${planLimit(sql`${p('plan')}`, 'replies_at_once', sql`${p('maxGenerating')}::int`)} as replies),
    budget as (${countUse(sql`select ${p('budgetKey')}::text, now(), 1 from placed`, BUDGET_WINDOW_SECONDS)}),
    -- A send is taken when it fits the usage limit and fewer than the most replies are generating.
    admitted as (
      update users set
        ai_reserved_chars = ai_reserved_chars + ${p('chars')},
        ai_generating = ai_generating + 1
      where id = ${u}
        and (select count from budget) <= (select sends from lim)
        and ${fitsUsage(p('chars'), sql`(select chars from lim)`)}
        and ai_generating < (select replies from lim)
      returning id
    ) ${created} ${replaced},
    inserted as (
      insert into messages (user_id, thread_id, content, client_message_id, parent_id, depth, origin,
        selected_at, chat_model, provider, model_id, media_url, media_type, upload_id, media_name,
        media_mime, reserved_chars, node_id, attempt_id)
      select ${u}::uuid, ${threadIdOf}, ${p('content')}::text, ${p('clientMessageId')}::text, placed.parent_id,
        placed.depth, ${p('origin')}::text, ${now}::timestamptz, ${p('chatModel')}::text,
        ${p('provider')}::text, ${p('modelId')}::text, ${p('mediaUrl')}::text, ${p('mediaType')}::text,
        ${p('uploadId')}::uuid, ${p('mediaName')}::text, ${p('mediaMime')}::text, ${p('chars')}::int,
        ${NODE_ID}::text, ${p('attemptId')}::uuid
      from placed, admitted
      where true ${afterPlaced}
      returning id, thread_id, parent_id, depth
    ),
    shown as (
      insert into shown_turns (thread_id, depth, message_id)
      select thread_id, depth, id from inserted where ${shown}
    ) ${touched},
    -- What the model is sent: the exchanges before the new one on its branch, by primary key.
    ${historyFrom(sql`(select parent_id from placed)`)}
    select
      exists (select 1 from found) as found,
      exists (select 1 from placed) as placed,
      (select count from budget) as budget_count,
      (select sends from lim) as budget_limit,
      (select retry_after from budget) as retry_after,
      (select id from inserted) as id,
      (select thread_id from inserted) as thread_id,
      (select parent_id from inserted) as parent_id,
      case when exists (select 1 from inserted) then ${historyJson} end as history
  `
}

/**
 * Runs the statement. The unique indexes it may hit are outcomes: a reused clientMessageId
 * (`duplicate`), and another send placed after the same leaf first (`moved`).
 */
export async function startSend(
  db: Db | Tx,
  place: Placement,
  v: SendRow,
  claim: Pick<UsageClaim, 'chars' | 'plan' | 'limit'>,
): Promise<SendOutcome> {
  const u = v.userId
  const shape: StartShape = {
    kind: place.kind,
    firstTurn: place.kind === 'revise' && place.parentId === null,
  }
  // Made here rather than by the statement: known without reading it back, a value like any other.
  const attemptId = randomUUID()
  const values = {
    ...v,
    ...claim,
    u,
    attemptId,
    now: v.now.toISOString(),
    budgetKey: `send:${u}`,
    sendsPerMinute: SENDS_PER_MINUTE,
    maxGenerating: MAX_GENERATING_PER_USER,
    ...(place.kind === 'new-thread'
      ? { title: place.title, projectId: place.projectId ?? null }
      : { threadId: place.threadId }),
    ...(place.kind === 'revise' ? { parentId: place.parentId, depth: place.depth } : {}),
  }
  let result: Awaited<ReturnType<typeof executeNamed>>
  try {
    result = await executeNamed(
      db,
      shapedStatement('start', shape, () => buildStart(shape), values),
    )
  } catch (err) {
    if (violates(err, 'messages_client_id_idx')) return { kind: 'duplicate' }
    if (violates(err, 'shown_turns_pkey')) return { kind: 'moved' }
    throw err
  }
  const r = result.rows[0] ?? {}
  if (!r.found) return { kind: 'no-thread' }
  if (!r.placed) return { kind: 'moved' }
  if (Number(r.budget_count) > Number(r.budget_limit))
    return { kind: 'over-budget', retryAfter: Math.max(1, Number(r.retry_after)) }
  if (!r.id) return { kind: 'refused' }
  return {
    kind: 'stored',
    row: {
      id: String(r.id),
      userId: u,
      threadId: String(r.thread_id),
      parentId: r.parent_id ? String(r.parent_id) : null,
      content: v.content,
      mediaType: v.mediaType,
      attemptId,
    },
    history: historyOf(r.history),
  }
}

/** A unique violation on `index`, as PGlite and node-postgres report it (drizzle may wrap it). */
export function violates(err: unknown, index: string): boolean {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } }
  const code = e?.code ?? e?.cause?.code
  const constraint = e?.constraint ?? e?.cause?.constraint
  return code === '23505' && constraint === index
}
