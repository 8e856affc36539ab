// The console's reads and its own writes. It reads every feature's tables but writes only its
// own (audit log, invites, plan limits) and a person's role and suspension.
import { and, desc, eq, isNull, lt, or, type SQL, sql } from 'drizzle-orm'
import {
  ADMIN_PAGE_SIZE,
  type AdminLimits,
  type AdminUsersQuery,
  type PlanLimits,
  type UsageFigures,
} from '#contract/admin.ts'
import type { Db, Tx } from '#server/db/client.ts'
import { adminAudit, invites, planLimits, sessions, users, waitlist } from '#server/db/schema/index.ts'
import {
  cursorTimestamp,
  cursorUuid,
  decodeCursor,
  encodeCursor,
  exactTimestamp,
} from '#server/lib/cursor.ts'

export interface PersonRow {
  id: string
  email: string
  emailVerifiedAt: Date | null
  isPremium: boolean
  subscriptionEndDate: Date | null
  createdAt: Date
  lastActiveAt: Date | null
  suspendedAt: Date | null
  role: 'operator' | null
  aiInputChars: number
  aiOutputChars: number
  co2Saved: number
  treesPlanted: number
  threads: number
}

/** `ilike` matches `_` and `%` as wildcards: a search for "a_b" means those characters. */
const likeText = (q: string) => `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`

const dayStart = (date: string) => sql`${date}::date::timestamptz`
const dayEnd = (date: string) => sql`(${date}::date + 1)::timestamptz`

// Drizzle writes a column of the one table a select reads without its table's name, which inside
// a subquery would name the subquery's own column: these name the outer row.
const userId = sql.raw('"users"."id"')
const waitlistEmail = sql.raw('"waitlist"."email"')

// A person's last activity: their newest message or sign-in (both read by index).
const lastActive = sql<Date | null>`greatest(
  (select max(m.created_at) from messages m where m.user_id = ${userId}),
  (select max(s.created_at) from sessions s where s.user_id = ${userId}))`

/** A page of people, newest accounts first, with their usage and counts (never their messages). */
export async function listPeople(
  db: Db,
  query: AdminUsersQuery,
  now: Date,
): Promise<{ people: PersonRow[]; nextCursor: string | null }> {
  const where: SQL[] = []
  if (query.q) where.push(sql`${users.email} ilike ${likeText(query.q.toLowerCase())}`)
  const premium = sql`${users.isPremium} and (${users.subscriptionEndDate} is null or ${users.subscriptionEndDate} > ${now.toISOString()}::timestamptz)`
  if (query.plan === 'premium') where.push(premium)
  if (query.plan === 'free') where.push(sql`not (${premium})`)
  if (query.createdFrom) where.push(sql`${users.createdAt} >= ${dayStart(query.createdFrom)}`)
  if (query.createdTo) where.push(sql`${users.createdAt} < ${dayEnd(query.createdTo)}`)
  if (query.activeFrom) {
    const from = dayStart(query.activeFrom)
    where.push(
      sql`(exists (select 1 from messages m where m.user_id = ${userId} and m.created_at >= ${from})
        or exists (select 1 from sessions s where s.user_id = ${userId} and s.created_at >= ${from}))`,
    )
  }
  if (query.cursor) {
    const [at, id] = decodeCursor(query.cursor, 2)
    const created = sql`${cursorTimestamp(at)}::timestamptz`
    const after = or(
      lt(users.createdAt, created),
      and(eq(users.createdAt, created), lt(users.id, cursorUuid(id))),
    )
    if (after) where.push(after)
  }
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      emailVerifiedAt: users.emailVerifiedAt,
      isPremium: users.isPremium,
      subscriptionEndDate: users.subscriptionEndDate,
      createdAt: users.createdAt,
      createdAtExact: exactTimestamp(users.createdAt),
      lastActiveAt: sql<string | null>`${lastActive}`,
      suspendedAt: users.suspendedAt,
      role: users.role,
      aiInputChars: users.aiInputChars,
      aiOutputChars: users.aiOutputChars,
      co2Saved: users.co2Saved,
      treesPlanted: users.treesPlanted,
      threads: sql<number>`(select count(*) from threads t where t.user_id = ${userId})::int`,
    })
    .from(users)
    .where(where.length > 0 ? and(...where) : undefined)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(ADMIN_PAGE_SIZE + 1)
  const page = rows.slice(0, ADMIN_PAGE_SIZE)
  const last = page.at(-1)
  return {
    people: page.map(({ createdAtExact: _, lastActiveAt, ...row }) => ({
      ...row,
      lastActiveAt: lastActiveAt ? new Date(lastActiveAt) : null,
    })),
    nextCursor: rows.length > ADMIN_PAGE_SIZE && last ? encodeCursor([last.createdAtExact, last.id]) : null,
  }
}

export async function findPerson(db: Db, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id))
  return row
}

/**
 * Suspends or restores a person. Suspending raises their session epoch and deletes their
 * sessions in the same transaction: every open tab is signed out at its next request.
 */
export async function setSuspended(tx: Tx, id: string, suspended: boolean): Promise<boolean> {
  const [row] = await tx
    .update(users)
    .set(
      suspended
        ? { suspendedAt: sql`now()`, sessionEpoch: sql`${users.sessionEpoch} + 1` }
        : { suspendedAt: null },
    )
    .where(eq(users.id, id))
    .returning({ id: users.id })
  if (suspended) await tx.delete(sessions).where(eq(sessions.userId, id))
  return row !== undefined
}

export async function setRole(tx: Tx, id: string, operator: boolean): Promise<boolean> {
  const [row] = await tx
    .update(users)
    .set({ role: operator ? 'operator' : null })
    .where(eq(users.id, id))
    .returning({ id: users.id })
  return row !== undefined
}

export interface AuditWrite {
  actor: { id: string; email: string }
  action: string
  target: string
  detail?: Record<string, unknown>
}

export async function audit(tx: Db | Tx, entry: AuditWrite): Promise<void> {
  await tx.insert(adminAudit).values({
    actorId: entry.actor.id,
    actorEmail: entry.actor.email,
    action: entry.action,
    target: entry.target,
    detail: entry.detail ?? null,
  })
}

export async function listAudit(db: Db, cursor: string | undefined, limit: number) {
  const where = cursor
    ? (() => {
        const [at, id] = decodeCursor(cursor, 2)
        const t = sql`${cursorTimestamp(at)}::timestamptz`
        return or(lt(adminAudit.at, t), and(eq(adminAudit.at, t), lt(adminAudit.id, cursorUuid(id))))
      })()
    : undefined
  const rows = await db
    .select({
      id: adminAudit.id,
      at: adminAudit.at,
      atExact: exactTimestamp(adminAudit.at),
      actorEmail: adminAudit.actorEmail,
      action: adminAudit.action,
      target: adminAudit.target,
      detail: adminAudit.detail,
    })
    .from(adminAudit)
    .where(where)
    .orderBy(desc(adminAudit.at), desc(adminAudit.id))
    .limit(limit + 1)
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return {
    entries: page.map(({ atExact: _, ...row }) => row),
    nextCursor: rows.length > limit && last ? encodeCursor([last.atExact, last.id]) : null,
  }
}

/** The waitlist, newest first, with each address's newest invite and whether it has an account. */
export function listWaitlist(db: Db) {
  return db
    .select({
      email: waitlist.email,
      createdAt: waitlist.createdAt,
      invitedAt: sql<
        string | null
      >`(select max(i.created_at) from invites i where i.email = ${waitlistEmail})`,
      registered: sql<boolean>`exists (select 1 from users u where u.email = ${waitlistEmail})`,
    })
    .from(waitlist)
    .orderBy(desc(waitlist.createdAt), desc(waitlist.email))
}

export async function onWaitlist(db: Db, email: string): Promise<boolean> {
  const [row] = await db.select({ email: waitlist.email }).from(waitlist).where(eq(waitlist.email, email))
  return row !== undefined
}

export async function openInviteCount(db: Db, email: string): Promise<number> {
  const rows = await db
    .select({ id: invites.id })
    .from(invites)
    .where(and(eq(invites.email, email), isNull(invites.usedAt)))
  return rows.length
}

export async function storedLimits(db: Db): Promise<Partial<AdminLimits>> {
  const rows = await db.select().from(planLimits)
  const out: Partial<AdminLimits> = {}
  for (const r of rows)
    out[r.plan] = {
      charsPer30Days: r.charsPer30Days,
      sendsPerMinute: r.sendsPerMinute,
      repliesAtOnce: r.repliesAtOnce,
    }
  return out
}

export async function saveLimits(tx: Tx, limits: AdminLimits): Promise<void> {
  for (const plan of ['free', 'premium'] as const) {
    const values: PlanLimits = limits[plan]
    await tx
      .insert(planLimits)
      .values({ plan, ...values })
      .onConflictDoUpdate({ target: planLimits.plan, set: { ...values, updatedAt: sql`now()` } })
  }
}

// One reply's figures, from its row: tokens, characters and its stored footprint (co2_impact).
const figures = {
  replies: sql<number>`count(*)::int`,
  inputTokens: sql<number>`coalesce(sum(m.input_tokens), 0)::bigint`,
  outputTokens: sql<number>`coalesce(sum(m.output_tokens), 0)::bigint`,
  inputChars: sql<number>`coalesce(sum(length(m.content)), 0)::bigint`,
  outputChars: sql<number>`coalesce(sum(length(m.response)), 0)::bigint`,
  co2Emitted: sql<number>`coalesce(sum((m.co2_impact->'actual'->>'mid')::float8), 0)`,
  co2Saved: sql<number>`coalesce(sum((m.co2_impact->'saved'->>'mid')::float8), 0)`,
  energyWh: sql<number>`coalesce(sum((m.co2_impact->'energyWh'->>'mid')::float8), 0)`,
  waterL: sql<number>`coalesce(sum((m.co2_impact->'waterL'->>'mid')::float8), 0)`,
}

const figureColumns = sql.join(
  Object.entries(figures).map(([name, expr]) => sql`${expr} as ${sql.identifier(name)}`),
  sql`, `,
)

export type UsageRow = UsageFigures & { key: string }

const toFigures = (r: Record<string, unknown>): UsageFigures => ({
  replies: Number(r.replies),
  inputTokens: Number(r.inputTokens),
  outputTokens: Number(r.outputTokens),
  inputChars: Number(r.inputChars),
  outputChars: Number(r.outputChars),
  co2Emitted: Number(r.co2Emitted),
  co2Saved: Number(r.co2Saved),
  energyWh: Number(r.energyWh),
  waterL: Number(r.waterL),
})

/**
 * Settled replies between two UTC days (both included), grouped by day, model or the person's
 * plan now. A person's plan is read as it is today: the rows do not record it per reply.
 */
export async function usageReport(
  db: Db,
  range: { from: string; to: string },
  by: 'day' | 'model' | 'plan',
): Promise<{ rows: UsageRow[]; totals: UsageFigures }> {
  const key =
    by === 'day'
      ? sql`to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD')`
      : by === 'model'
        ? sql`coalesce(m.model_id, m.chat_model)`
        : sql`case when u.is_premium and (u.subscription_end_date is null or u.subscription_end_date > now()) then 'premium' else 'free' end`
  const result = (await db.execute(sql`
    select ${key} as key, ${figureColumns}
    from messages m join users u on u.id = m.user_id
    where m.status in ('complete', 'interrupted') and m.origin <> 'import'
      and m.created_at >= ${dayStart(range.from)} and m.created_at < ${dayEnd(range.to)}
    group by 1 order by 1`)) as unknown as { rows: Record<string, unknown>[] }
  const rows = result.rows.map((r) => ({ key: String(r.key), ...toFigures(r) }))
  const totals = toFigures(
    Object.fromEntries(
      Object.keys(figures).map((name) => [
        name,
        rows.reduce((sum, r) => sum + (r[name as keyof UsageFigures] as number), 0),
      ]),
    ),
  )
  return { rows, totals }
}

/** The service's emissions (grams, midpoints) from the start of this UTC month. */
export async function monthEmitted(db: Db): Promise<number> {
  const result = (await db.execute(sql`
    select coalesce(sum((co2_impact->'actual'->>'mid')::float8), 0) as grams from messages
    where status in ('complete', 'interrupted') and origin <> 'import'
      and created_at >= date_trunc('month', now() at time zone 'UTC') at time zone 'UTC'`)) as unknown as {
    rows: { grams: unknown }[]
  }
  return Number(result.rows[0]?.grams ?? 0)
}
