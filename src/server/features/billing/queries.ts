// The only code touching the billing columns of users and the stripe_events table.
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm'
import type { Db, Tx } from '#server/db/client.ts'
import { stripeEvents, users } from '#server/db/schema/index.ts'
import type { UserRow } from '#server/lib/context.ts'
import type { SubscriptionState } from './subscription-state.ts'

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id))
  return row
}

export async function findUserByCustomer(db: Db, customerId: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.stripeCustomerId, customerId))
  return row
}

/**
 * Stores the customer id unless the user already has one; answers the id the user ends up
 * with, so two racing requests agree on one customer.
 */
export async function claimCustomer(db: Db, userId: string, customerId: string): Promise<string | null> {
  const [claimed] = await db
    .update(users)
    .set({ stripeCustomerId: customerId })
    .where(and(eq(users.id, userId), isNull(users.stripeCustomerId)))
    .returning({ customerId: users.stripeCustomerId })
  if (claimed) return claimed.customerId
  return (await findUserById(db, userId))?.stripeCustomerId ?? null
}

/**
 * The database's clock, with microseconds, as text: the version stamp of a read from Stripe.
 * One clock for every app node, so stamps compare across nodes.
 */
export async function databaseClock(db: Db): Promise<string> {
  const result = (await db.execute(sql`select clock_timestamp()::text as now`)) as unknown as {
    rows: { now: string }[]
  }
  const now = result.rows[0]?.now
  if (!now) throw new Error('clock_timestamp() returned nothing')
  return now
}

/**
 * Writes a state read from Stripe at `readAt` unless a later read is already stored: the
 * last read to START wins, and every change at Stripe is followed by an event whose read
 * starts after it, so the stored state converges on Stripe's latest (decision 004).
 */
export async function applySubscriptionState(
  db: Db | Tx,
  userId: string,
  state: SubscriptionState,
  readAt: string,
): Promise<boolean> {
  const stamp = sql`${readAt}::timestamptz`
  const rows = await db
    .update(users)
    .set({ ...state, subscriptionSyncedAt: sql`${stamp}` })
    .where(
      and(
        eq(users.id, userId),
        or(isNull(users.subscriptionSyncedAt), lt(users.subscriptionSyncedAt, stamp)),
      ),
    )
    .returning({ id: users.id })
  return rows.length > 0
}

export async function isEventRecorded(db: Db, eventId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: stripeEvents.id })
    .from(stripeEvents)
    .where(eq(stripeEvents.id, eventId))
  return Boolean(row)
}

/**
 * Records the event and applies its effect in one transaction: a delivery either leaves both
 * or neither. Answers false (and changes nothing) when the event id was already processed.
 */
export async function recordEvent(
  db: Db,
  event: { id: string; type: string; created: number },
  effect?: (tx: Tx) => Promise<unknown>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type, eventCreatedAt: new Date(event.created * 1000) })
      .onConflictDoNothing({ target: stripeEvents.id })
      .returning({ id: stripeEvents.id })
    if (inserted.length === 0) return false
    if (effect) await effect(tx)
    return true
  })
}
