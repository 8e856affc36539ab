import { and, eq, inArray, ne, sql } from 'drizzle-orm'
import type { Co2Impact } from '#contract/impact.ts'
import type { Db, Tx } from '#server/db/client.ts'
import { messages, PERSON_SENT_ORIGINS, users } from '#server/db/schema/index.ts'

/** Adds a reply's saved grams to the user's totals: midpoint shown, bounds min to min, max to max. */
export async function addCo2Saved(db: Db | Tx, userId: string, co2: Co2Impact): Promise<void> {
  await db
    .update(users)
    .set({
      co2Saved: sql`${users.co2Saved} + ${co2.saved.mid}`,
      co2SavedMin: sql`${users.co2SavedMin} + ${co2.saved.min}`,
      co2SavedMax: sql`${users.co2SavedMax} + ${co2.saved.max}`,
    })
    .where(eq(users.id, userId))
}

/**
 * One tree per two sent messages (spec section 4), in a single UPDATE so calls from two tabs
 * cannot plant twice: each computes the same count. `greatest` keeps trees already planted when
 * the user clears the history (the trees are in the ground; docs/decisions/003).
 */
export async function plantTrees(db: Db, userId: string) {
  const sent = db
    .select({ n: sql`count(*)::int / 2` })
    .from(messages)
    .where(
      and(
        eq(messages.userId, userId),
        ne(messages.status, 'failed'),
        // Only what the person wrote: not regenerated replies nor '@' copies (decisions/012).
        inArray(messages.origin, [...PERSON_SENT_ORIGINS]),
      ),
    )
  const [row] = await db
    .update(users)
    .set({ treesPlanted: sql`greatest(${users.treesPlanted}, (${sent}))` })
    .where(eq(users.id, userId))
    .returning()
  return row
}
