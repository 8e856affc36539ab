// A person's custom instructions as stored: read by the settings and by the data export.
import { eq } from 'drizzle-orm'
import type { Instructions } from '#contract/assistant.ts'
import type { Db } from './client.ts'
import { userInstructions } from './schema/index.ts'

/** Their instructions; undefined when they never wrote any. */
export async function findInstructions(db: Db, userId: string): Promise<Instructions | undefined> {
  const [row] = await db
    .select({
      aboutMe: userInstructions.aboutMe,
      howToRespond: userInstructions.howToRespond,
      enabled: userInstructions.enabled,
    })
    .from(userInstructions)
    .where(eq(userInstructions.userId, userId))
  return row
}
