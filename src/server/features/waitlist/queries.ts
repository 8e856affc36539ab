import { asc } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { waitlist } from '#server/db/schema/index.ts'

/** Adds the address once; a repeat changes nothing (the e-mail column is unique). */
export async function joinWaitlist(db: Db, email: string): Promise<void> {
  await db.insert(waitlist).values({ email }).onConflictDoNothing({ target: waitlist.email })
}

/** The whole list, oldest first, for the CSV export. */
export function listWaitlist(db: Db): Promise<{ email: string; createdAt: Date }[]> {
  return db
    .select({ email: waitlist.email, createdAt: waitlist.createdAt })
    .from(waitlist)
    .orderBy(asc(waitlist.createdAt), asc(waitlist.email))
}
