import { eq, sql } from 'drizzle-orm'
import type { Co2Impact } from '#contract/impact.ts'
import type { Db, Tx } from '#server/db/client.ts'
import { users } from '#server/db/schema/index.ts'

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
 * cannot plant twice: each reads the same count. `greatest` keeps trees already planted when
 * the user clears the history (the trees are in the ground; docs/decisions/003).
 */
export async function plantTrees(db: Db, userId: string) {
  // The sent count kept on the row (decision 039), not counted from the whole history.
  const [row] = await db
    .update(users)
    .set({ treesPlanted: sql`greatest(${users.treesPlanted}, ${users.sentMessages} / 2)` })
    .where(eq(users.id, userId))
    .returning()
  return row
}
